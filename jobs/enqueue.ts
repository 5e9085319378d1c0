import type { AddJobFunction } from "graphile-worker";
import type { ExportKind } from "#db/schema";

// Job keys derive from the row they serve: adding the same job twice replaces, never doubles.
export function photoJobKey(measurementId: number) {
  return `process_photo:${measurementId}`;
}

export function enqueuePhotoJob(measurementId: number, addJob: AddJobFunction) {
  return addJob("process_photo", { measurementId }, { jobKey: photoJobKey(measurementId), maxAttempts: 5 });
}

export function exportJobKey(kind: ExportKind, exportId: number) {
  return `${kind}_export:${exportId}`;
}

/** excel_export / pdf_export {exportId}: retried with graphile-worker's exponential backoff. */
export function enqueueExportJob(kind: ExportKind, exportId: number, addJob: AddJobFunction) {
  return addJob(`${kind}_export`, { exportId }, { jobKey: exportJobKey(kind, exportId), maxAttempts: 5 });
}
