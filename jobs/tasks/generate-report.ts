import { generateReport } from "~/services/reports.server";
import { db } from "~/utils/db.server";
import type { Task } from "graphile-worker";

/** generate_report {reportId}: one report's tallies (docs/decisions/021-reports.md). */
export const generateReportTask: Task = async (payload, helpers) => {
  const reportId = Number((payload as { reportId?: unknown }).reportId);
  if (!Number.isInteger(reportId)) throw new Error("generate_report jobs need a reportId");
  await generateReport(db(), reportId, { attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
};
