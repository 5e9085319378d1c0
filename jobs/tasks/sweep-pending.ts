import { failAnalysis, findStaleAnalyses, noteAnalysisReenqueued } from "~/models/analyze-report.server";
import { findStaleExports, finishExport, noteExportReenqueued } from "~/models/export.server";
import { MEASUREMENT_KIND_NAMES } from "~/models/measurement-kind.server";
import { findStalePhotos, markPhotoFailed, notePhotoReenqueued } from "~/models/measurement-photo.server";
import { failReportGeneration, findStaleReports, noteReportReenqueued } from "~/models/report.server";
import { deleteOldSessions } from "~/models/session.server";
import { enqueueAnalysisJob, enqueueExportJob, enqueuePhotoJob, enqueueReportJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import type { Task } from "graphile-worker";

const MAX_SWEEPS = 5;

/**
 * The queue (PostgreSQL) and the rows (MySQL) can disagree after a crash between the two
 * writes. Every minute, rows still pending past JOB_STALE_AFTER_SECONDS are enqueued again
 * (same job key, so never twice), and given up as failed after MAX_SWEEPS tries.
 */
export const sweepPending: Task = async (_payload, helpers) => {
  const staleBefore = new Date(Date.now() - env().JOB_STALE_AFTER_SECONDS * 1000);
  for (const kind of MEASUREMENT_KIND_NAMES) {
    const photos = await findStalePhotos(db(), kind, staleBefore);
    for (const row of photos) {
      if (row.photo_attempts >= MAX_SWEEPS) {
        await markPhotoFailed(db(), kind, row.id, "gave up after repeated retries");
        continue;
      }
      await enqueuePhotoJob(row.id, helpers.addJob, kind);
      await notePhotoReenqueued(db(), kind, row.id);
    }
    if (photos.length) helpers.logger.info(`sweep: re-enqueued ${photos.length} pending ${kind} photo(s)`);
  }
  // Exports beat while they write (heartbeat_at), so only a lost job or a killed worker is stale.
  const exports = await findStaleExports(db(), staleBefore);
  for (const row of exports) {
    if (row.attempts >= MAX_SWEEPS) {
      await finishExport(db(), row.id, { status: 3, detail: "gave up after repeated retries" });
      continue;
    }
    await enqueueExportJob(row.kind, row.id, helpers.addJob);
    await noteExportReenqueued(db(), row.id);
  }
  if (exports.length) helpers.logger.info(`sweep: re-enqueued ${exports.length} stale export(s)`);
  // Analyses still "created" past the timeout: a lost job or a worker killed mid-run.
  const analyses = await findStaleAnalyses(db(), staleBefore);
  for (const row of analyses) {
    if (row.attempts >= MAX_SWEEPS) {
      await failAnalysis(db(), row.id, "gave up after repeated retries");
      continue;
    }
    await enqueueAnalysisJob(row.id, helpers.addJob);
    await noteAnalysisReenqueued(db(), row.id);
  }
  if (analyses.length) helpers.logger.info(`sweep: re-enqueued ${analyses.length} stale analysis report(s)`);
  // Reports still generating past the timeout: a lost job or a worker killed mid-run.
  const reports = await findStaleReports(db(), staleBefore);
  for (const row of reports) {
    if (row.generation_attempts >= MAX_SWEEPS) {
      await failReportGeneration(db(), row.id, "gave up after repeated retries");
      continue;
    }
    await enqueueReportJob(row.id, helpers.addJob);
    await noteReportReenqueued(db(), row.id);
  }
  if (reports.length) helpers.logger.info(`sweep: re-enqueued ${reports.length} stale report(s)`);
  await deleteOldSessions(db(), new Date(Date.now() - 7 * 24 * 3600 * 1000));
};
