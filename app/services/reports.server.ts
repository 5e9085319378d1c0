import type { Report } from "#db/schema";
import {
  addMeasurementsToReport,
  addStorageToReport,
  createReport,
  failReportGeneration,
  generateStorageReport,
  runReportGeneration,
  type AddResult,
  type NewReport,
} from "~/models/report.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { enqueueReportJob } from "./jobs.server";
import { publish } from "./realtime.server";
import type { AddJobFunction } from "graphile-worker";

// Reports (docs/decisions/021-reports.md): what the screens and the API call. Every change that
// needs new tallies enqueues the generate_report job (keyed by the report: a second add while one
// is queued replaces it); the job stores the tallies and publishes storage-report-updated.

export const REPORT_EVENT = "storage-report-updated";

/** The channels that hear about a report: the spec's report channel, and both organisations' (the list, the badge). */
export function reportChannels(report: Pick<Report, "id" | "organization_id" | "recipient_organization_id">) {
  const channels = [`report:${report.id}`, `organization:${report.organization_id}`];
  if (report.recipient_organization_id) channels.push(`organization:${report.recipient_organization_id}`);
  return channels;
}

/** The spec's event payload: report {id, name, user_id, added_measurements, not_added_measurements}. */
export function reportEventPayload(report: Report) {
  return {
    report: {
      id: report.id,
      name: report.name,
      user_id: report.created_by,
      added_measurements: report.last_added_count,
      not_added_measurements: report.last_not_added_count,
      generating_in_progress: report.generating_in_progress,
    },
  };
}

async function enqueue(id: number, addJob: AddJobFunction) {
  // If the queue is down the row stays generating and the sweep enqueues it later.
  await enqueueReportJob(id, addJob).catch(() => undefined);
}

export async function startReport(db: DB, ctx: AuthContext, values: NewReport, addJob: AddJobFunction) {
  const report = await createReport(db, ctx, values);
  await enqueue(report.id, addJob);
  return report;
}

export async function startStorageReport(
  db: DB,
  ctx: AuthContext,
  storageId: number,
  values: { volume_formula: string; reported_at: string },
  name: (storageName: string) => string,
  addJob: AddJobFunction,
) {
  const result = await generateStorageReport(db, ctx, storageId, values, name);
  await enqueue(result.report.id, addJob);
  return result;
}

export async function addToReport(
  db: DB,
  ctx: AuthContext,
  id: number,
  what: { measurementIds: number[] } | { storageId: number },
  addJob: AddJobFunction,
): Promise<AddResult> {
  const result =
    "storageId" in what
      ? await addStorageToReport(db, ctx, id, what.storageId)
      : await addMeasurementsToReport(db, ctx, id, what.measurementIds);
  if (result.added_measurements > 0) await enqueue(id, addJob);
  return result;
}

/** The generate_report job: tally, store, tell both organisations. */
export async function generateReport(
  db: DB,
  id: number,
  job: { attempts: number; maxAttempts: number } = { attempts: 1, maxAttempts: 1 },
) {
  let report: Report | undefined;
  try {
    report = await runReportGeneration(db, id);
  } catch (error) {
    if (job.attempts < job.maxAttempts) throw error;
    await failReportGeneration(db, id, error instanceof Error ? error.message : String(error));
    report = await db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst();
  }
  if (!report || report.generating_in_progress) return report;
  const payload = reportEventPayload(report);
  for (const channel of reportChannels(report)) await publish(channel, REPORT_EVENT, payload);
  return report;
}
