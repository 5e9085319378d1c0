import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EditorPage } from "~/components/editor/editor-page";
import { MeasurementEditor } from "~/components/editor/measurement-editor";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { LumberPhoto } from "~/components/lumber/lumber-photo";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { loadLumberDetail } from "./__lumber-detail.server";

// The measurement editor for a lumber measurement: plank rectangles on the package-end photo.
// Saving goes through PATCH /api/web_app/lumber_measurements/{id} (planks, planks_removed).

export const handle = { i18n: ["timber", "lookups"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const d = await loadLumberDetail(ctx, parseId(params.id));
  return json({
    measurement: { id: d.measurement.id, volume: d.measurement.volume, plankCount: d.measurement.plank_count },
    photo: d.photo,
    planks: d.planks,
    // Plank sizes are kept in millimetres (the domain's unit for lumber).
    dims: d.product
      ? { lengthMm: d.product.plank_length, widthMm: d.product.plank_width, heightMm: d.product.plank_height }
      : null,
    readOnly: d.locked || !d.editable,
    locked: d.locked,
    user: { unit: ctx.user.volume_unit, precision: ctx.user.rounding_precision, locale: ctx.user.locale },
  });
}

export default function LumberEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("timber");
  const m = data.measurement;
  return (
    <EditorPage
      title={t("editor.title", { id: m.id })}
      back={`/measurements/lumber/${m.id}`}
      data={data}
      hasPhoto={!!data.photo}
      photoSrc={data.photo?.url ?? null}
      notice={data.locked ? t("detail.locked") : null}
      fallback={
        <LumberPhoto
          src={data.photo?.url ?? null}
          width={data.photo?.width ?? null}
          height={data.photo?.height ?? null}
          planks={data.planks}
          alt={t("photoAlt", { id: m.id })}
        />
      }
      editor={({ version, onSaved }) => (
        <MeasurementEditor
          kind="planks"
          photo={{ src: data.photo!.url, width: data.photo!.width, height: data.photo!.height }}
          loaded={{ planks: data.planks }}
          version={version}
          server={{ volumeM3: m.volume, count: m.plankCount }}
          planksPreview={{ dims: data.dims }}
          formulas={[]}
          assortments={[]}
          culls={[]}
          unit={data.user.unit}
          precision={data.user.precision}
          locale={data.user.locale}
          readOnly={data.readOnly}
          saveUrl={`/api/web_app/lumber_measurements/${m.id}`}
          onSaved={onSaved}
        />
      )}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
