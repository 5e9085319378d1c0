import { runAnalysis } from "~/services/duplicate-analysis.server";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";
import type { Task } from "graphile-worker";

/** analyze_report {reportId}: one duplicate analysis. */
export const analyzeReportTask: Task = async (payload, helpers) => {
  const reportId = Number((payload as { reportId?: unknown }).reportId);
  if (!Number.isInteger(reportId)) throw new Error("analyze_report jobs need a reportId");
  await runAnalysis(db(), fileStorage(), reportId, {
    attempts: helpers.job.attempts,
    maxAttempts: helpers.job.max_attempts,
  });
};
