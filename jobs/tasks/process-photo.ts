import { isMeasurementKind } from "~/models/measurement-kind.server";
import { markPhotoFailed } from "~/models/measurement-photo.server";
import { fileStorage } from "~/services/file-storage.server";
import { makeRenditions } from "~/services/photos.server";
import { publish } from "~/services/realtime.server";
import { db } from "~/utils/db.server";
import type { Task } from "graphile-worker";

/**
 * process_photo {measurementId, kind}: the optimized, popup and thumbnail renditions of one
 * measurement's photo. A payload without a kind (queued before kinds had photos) is timber.
 */
export const processPhoto: Task = async (payload, helpers) => {
  const { measurementId: rawId, kind: rawKind } = payload as { measurementId?: unknown; kind?: unknown };
  const measurementId = Number(rawId);
  if (!Number.isInteger(measurementId)) throw new Error("process_photo needs a measurementId");
  const kind = rawKind === undefined ? "timber" : rawKind;
  if (!isMeasurementKind(kind)) throw new Error(`process_photo: unknown measurement kind ${String(kind)}`);
  try {
    const done = await makeRenditions(db(), fileStorage(), kind, measurementId);
    if (!done) return; // the measurement or its photo is gone: nothing to do
    await publish(`organization:${done.organizationId}`, "measurement-photo-processed", {
      measurement_id: done.measurementId,
      kind,
    });
  } catch (error) {
    // graphile-worker retries with backoff; after the last attempt the row shows the failure.
    if (helpers.job.attempts >= helpers.job.max_attempts) {
      await markPhotoFailed(db(), kind, measurementId, error instanceof Error ? error.message : String(error));
    }
    throw error;
  }
};
