import type { AddJobFunction } from "graphile-worker";

// Job keys derive from the row they serve: adding the same job twice replaces, never doubles.
export function photoJobKey(measurementId: number) {
  return `process_photo:${measurementId}`;
}

export function enqueuePhotoJob(measurementId: number, addJob: AddJobFunction) {
  return addJob("process_photo", { measurementId }, { jobKey: photoJobKey(measurementId), maxAttempts: 5 });
}
