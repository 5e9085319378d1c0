import { makeWorkerUtils, type AddJobFunction, type WorkerUtils } from "graphile-worker";
import type { ExportKind } from "#db/schema";
import type { MeasurementKind } from "~/models/measurement-kind.server";
import { env } from "~/utils/env.server";

// The jobs port: web code and the worker enqueue through it, never through the worker's folder.
// Jobs live in PostgreSQL (graphile-worker); the rows they serve live in MySQL with a status.

let utils: Promise<WorkerUtils> | undefined;
function workerUtils() {
  utils ??= makeWorkerUtils({ connectionString: env().JOBS_DATABASE_URL });
  return utils;
}

export const addJob: AddJobFunction = async (identifier, payload, spec) =>
  (await workerUtils()).addJob(identifier, payload, spec);

export async function closeJobs() {
  if (utils) {
    const u = await utils;
    utils = undefined;
    await u.release();
  }
}

// Job keys derive from the row they serve: adding the same job twice replaces, never doubles.
// Timber photos keep the key they had before other measurement kinds had photos.
export function photoJobKey(measurementId: number, kind: MeasurementKind = "timber") {
  return kind === "timber" ? `process_photo:${measurementId}` : `process_photo:${kind}:${measurementId}`;
}

/** process_photo {measurementId, kind}: the renditions of one measurement's photo, of any kind (no kind: timber). */
export function enqueuePhotoJob(measurementId: number, addJob: AddJobFunction, kind: MeasurementKind = "timber") {
  const payload = kind === "timber" ? { measurementId } : { measurementId, kind };
  return addJob("process_photo", payload, { jobKey: photoJobKey(measurementId, kind), maxAttempts: 5 });
}

export function exportJobKey(kind: ExportKind, exportId: number) {
  return `${kind}_export:${exportId}`;
}

/** excel_export / pdf_export {exportId}: retried with graphile-worker's exponential backoff. */
export function enqueueExportJob(kind: ExportKind, exportId: number, addJob: AddJobFunction) {
  return addJob(`${kind}_export`, { exportId }, { jobKey: exportJobKey(kind, exportId), maxAttempts: 5 });
}

export function analysisJobKey(reportId: number) {
  return `analyze_report:${reportId}`;
}

/** analyze_report {reportId}: one duplicate analysis (app/services/duplicate-analysis.server.ts). */
export function enqueueAnalysisJob(reportId: number, addJob: AddJobFunction) {
  return addJob("analyze_report", { reportId }, { jobKey: analysisJobKey(reportId), maxAttempts: 3 });
}

export function reportJobKey(reportId: number) {
  return `generate_report:${reportId}`;
}

/** generate_report {reportId}: a report's tallies (app/services/reports.server.ts). */
export function enqueueReportJob(reportId: number, addJob: AddJobFunction) {
  return addJob("generate_report", { reportId }, { jobKey: reportJobKey(reportId), maxAttempts: 3 });
}
