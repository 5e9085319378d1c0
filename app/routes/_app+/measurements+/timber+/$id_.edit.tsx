import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EditorPage } from "~/components/editor/editor-page";
import { MeasurementEditor } from "~/components/editor/measurement-editor";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { loadMeasurementForEditor } from "./__timber-detail.server";

// The measurement editor for a timber measurement (opened from its detail page). Saving goes
// through PATCH /api/web_app/measurements/{id}, the spec's call, which recomputes on the server.

export const handle = { i18n: ["timber", "lookups"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const data = await loadMeasurementForEditor(ctx, parseId(params.id));
  return json({
    ...data,
    user: { unit: ctx.user.volume_unit, precision: ctx.user.rounding_precision, locale: ctx.user.locale },
  });
}

export default function TimberEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("timber");
  const m = data.measurement;
  const back = `/measurements/timber/${m.id}`;
  return (
    <EditorPage
      title={t("editor.title", { id: m.id })}
      back={back}
      data={data}
      hasPhoto={!!(m.photo && m.photoWidth && m.photoHeight)}
      photoSrc={m.photo}
      notice={data.locked ? t("detail.locked") : null}
      fallback={
        <MeasurementPhoto
          src={m.photo}
          width={m.photoWidth}
          height={m.photoHeight}
          logs={data.logs}
          references={data.references}
          alt={t("photoAlt", { id: m.id })}
        />
      }
      editor={({ version, onSaved }) => (
        <MeasurementEditor
          kind="logs"
          photo={{ src: m.photo, width: m.photoWidth!, height: m.photoHeight! }}
          loaded={{
            logs: data.logs,
            references: data.references,
            loadLines: m.loadLines,
            area: m.area,
            formula: m.formula,
          }}
          version={version}
          server={{ volumeM3: m.volume, count: m.logsCount }}
          logsPreview={{ logLengthM: m.logLength, species: m.species ?? undefined, coefficient: m.coefficient }}
          formulas={data.lookups.formulas}
          assortments={data.lookups.assortments}
          culls={data.lookups.culls}
          unit={data.user.unit}
          precision={data.user.precision}
          locale={data.user.locale}
          readOnly={data.readOnly}
          saveUrl={`/api/web_app/measurements/${m.id}`}
          onSaved={onSaved}
        />
      )}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
