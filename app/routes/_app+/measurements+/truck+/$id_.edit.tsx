import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EditorPage } from "~/components/editor/editor-page";
import { MeasurementEditor } from "~/components/editor/measurement-editor";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import { loadCmpcDetail } from "~/routes/_app+/measurements+/cmpc+/__cmpc-detail.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";

// The photo editor of a truck measurement (opened from its detail page, for every organisation):
// the reference lines drawn on the photo and the volume formula, saved through the spec's
// PATCH /api/web_app/truck_measurements/{id} {references, volume_formula}. The same loader and
// editor as the cmpc shipments detail's truck (docs/decisions/023-shipments.md); the server
// recomputes the totals and writes the history. Without JavaScript the page shows the photo with
// its reference lines and says the editor needs it.

export const handle = { i18n: ["timber", "lookups", "trucks"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const data = await loadCmpcDetail(ctx, "truck", parseId(params.id));
  return json({
    ...data,
    user: { unit: ctx.user.volume_unit, precision: ctx.user.rounding_precision, locale: ctx.user.locale },
  });
}

export default function TruckEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["timber", "trucks"]);
  const m = data.measurement;
  return (
    <EditorPage
      title={t("timber:editor.title", { id: m.id })}
      back={`/measurements/truck/${m.id}`}
      data={data}
      hasPhoto={!!(m.photo && m.photoWidth && m.photoHeight)}
      photoSrc={m.photo}
      notice={data.locked ? t("timber:detail.locked") : null}
      fallback={
        <MeasurementPhoto
          src={m.photo}
          width={m.photoWidth}
          height={m.photoHeight}
          logs={data.logs}
          references={data.references}
          alt={t("trucks:detail.photoAlt", { id: m.id })}
        />
      }
      editor={({ version, onSaved }) => (
        <MeasurementEditor
          kind="logs"
          modes={["VIEW", "REFERENCE"]}
          photo={{ src: m.photo, width: m.photoWidth!, height: m.photoHeight! }}
          loaded={{ logs: data.logs, references: data.references, formula: m.formula }}
          version={version}
          server={{ volumeM3: m.volume, count: m.logsCount }}
          logsPreview={{ logLengthM: null, coefficient: null }}
          formulas={data.formulas}
          assortments={[]}
          culls={[]}
          unit={data.user.unit}
          precision={data.user.precision}
          locale={data.user.locale}
          readOnly={data.readOnly}
          saveUrl={`/api/web_app/truck_measurements/${m.id}`}
          onSaved={onSaved}
        />
      )}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
