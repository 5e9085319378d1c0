import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EditorPage } from "~/components/editor/editor-page";
import { MeasurementEditor } from "~/components/editor/measurement-editor";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import {
  getContainerLogs,
  getContainerMeasurementRow,
  getContainerReferences,
} from "~/models/container-measurement.server";
import { canEditIn } from "~/models/measurement-kind.server";
import { screenPhotoUrl } from "~/models/measurement-photo.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";
import { CONTAINER_FORMULAS } from "~/utils/schemas/containers";
import { CONTAINER_SCREEN_FEATURE } from "./__containers.server";

// The measurement editor for a container measurement (docs/decisions/022-containers.md), opened
// from its detail page: logs (position and radius), removed logs and references on the photo;
// the formula is JAS. Saving goes through PATCH /api/web_app/containers/measurements/{id}, which
// recomputes every log's JAS scaling diameter and volume on the server. A locked measurement
// (locked_at set, the container sealed) opens with Save disabled; the server refuses it too.

export const handle = { i18n: ["containers", "timber", "lookups"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const m = await getContainerMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  requireFeature(ctx, CONTAINER_SCREEN_FEATURE);
  const [logs, references, editable] = await Promise.all([
    getContainerLogs(db(), ctx, id),
    getContainerReferences(db(), ctx, id),
    canEditIn(db(), ctx, m),
  ]);
  return json({
    measurement: {
      id: m.id,
      photo: screenPhotoUrl("container", m),
      photoWidth: m.photo_width,
      photoHeight: m.photo_height,
      volume: m.volume,
      logsCount: m.logs_count,
      logLength: m.log_length,
      formula: m.volume_formula,
      lockedAt: m.locked_at,
    },
    logs: logs.map((l) => ({
      id: l.id,
      x: l.x,
      y: l.y,
      r: l.r,
      d: l.d,
      is_deleted: Boolean(l.is_deleted),
      modified_at: l.modified_at,
      cull_id: null,
      assortment_id: null,
    })),
    references: references.map(({ x1, y1, x2, y2, size }) => ({ x1, y1, x2, y2, size })),
    // Another inventory-locked or not-editable storage: look only.
    readOnly: !editable || m.inventory_id !== null,
    user: { unit: ctx.user.volume_unit, precision: ctx.user.rounding_precision, locale: ctx.user.locale },
  });
}

export default function ContainerEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["containers", "timber"]);
  const m = data.measurement;
  const locked = m.lockedAt !== null;
  return (
    <EditorPage
      title={t("containers:editor.title", { id: m.id })}
      back={`/measurements/container/${m.id}`}
      data={data}
      hasPhoto={!!(m.photo && m.photoWidth && m.photoHeight)}
      photoSrc={m.photo}
      notice={locked ? t("containers:editor.locked") : null}
      fallback={
        <MeasurementPhoto
          src={m.photo}
          width={m.photoWidth}
          height={m.photoHeight}
          logs={data.logs}
          references={data.references}
          alt={t("containers:detail.photo")}
        />
      }
      editor={({ version, onSaved }) => (
        <MeasurementEditor
          kind="containerLogs"
          photo={{ src: m.photo, width: m.photoWidth!, height: m.photoHeight! }}
          loaded={{ logs: data.logs, references: data.references, formula: m.formula }}
          version={version}
          server={{ volumeM3: m.volume, count: m.logsCount }}
          logsPreview={{ logLengthM: m.logLength, coefficient: null }}
          formulas={[...CONTAINER_FORMULAS]}
          assortments={[]}
          culls={[]}
          unit={data.user.unit}
          precision={data.user.precision}
          locale={data.user.locale}
          readOnly={data.readOnly}
          saveLocked={locked}
          saveUrl={`/api/web_app/containers/measurements/${m.id}`}
          onSaved={onSaved}
        />
      )}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
