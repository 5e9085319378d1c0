import type { Task } from "graphile-worker";
import { makeRenditions, markPhotoFailed } from "~/models/measurement-photo.server";
import { fileStorage } from "~/services/file-storage.server";
import { publish } from "~/services/realtime.server";
import { db } from "~/utils/db.server";

/** process_photo {measurementId}: the optimized, popup and thumbnail renditions of one photo. */
export const processPhoto: Task = async (payload, helpers) => {
  const measurementId = Number((payload as { measurementId?: unknown }).measurementId);
  if (!Number.isInteger(measurementId)) throw new Error("process_photo needs a measurementId");
  try {
    const done = await makeRenditions(db(), fileStorage(), measurementId);
    if (!done) return; // the measurement or its photo is gone: nothing to do
    await publish(`organization:${done.organizationId}`, "measurement-photo-processed", {
      measurement_id: done.measurementId,
    });
  } catch (error) {
    // graphile-worker retries with backoff; after the last attempt the row shows the failure.
    if (helpers.job.attempts >= helpers.job.max_attempts) {
      await markPhotoFailed(db(), measurementId, error instanceof Error ? error.message : String(error));
    }
    throw error;
  }
};
