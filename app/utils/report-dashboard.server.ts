import { addJob } from "~/services/jobs.server";
import { addToReport, startStorageReport } from "~/services/reports.server";
import { db } from "./db.server";
import { ForbiddenError } from "./errors";
import { storageReportName, todayIn } from "./reports.server";
import { ReportAddMeasurementsSchema, ReportStorageSchema } from "./schemas/reports";
import { redirectWithToast } from "./toast.server";
import type { AuthContext } from "./auth-context";

// The timber dashboard's report forms (docs/decisions/021-reports.md): "Generate report" and
// "Add to report" in a storage's row menu, "Add to report" on the bulk bar. Each answers with the
// spec's alert: none added is danger, all added success with the count, partly both counts.

const INTENTS = ["report-generate", "report-add-storage", "report-add-measurements"] as const;
type ReportIntent = (typeof INTENTS)[number];

export function isReportIntent(intent: unknown): intent is ReportIntent {
  return (INTENTS as readonly unknown[]).includes(intent);
}

/** The alert of an add: danger (none), success (all, with the count) or warning (both counts). */
export function addAlert(result: { added_measurements: number; not_added_measurements: number }) {
  const values = { added: result.added_measurements, notAdded: result.not_added_measurements };
  if (result.added_measurements === 0) return { type: "error" as const, key: "reports:alerts.noneAdded", values };
  if (result.not_added_measurements === 0) return { type: "success" as const, key: "reports:alerts.allAdded", values };
  return { type: "warning" as const, key: "reports:alerts.partlyAdded", values };
}

export async function reportDashboardAction(
  ctx: AuthContext,
  intent: ReportIntent,
  form: FormData,
  { ids, storageId, to }: { ids: number[]; storageId: number; to: string },
) {
  if (!ctx.features.includes("reports") || !ctx.isAdmin) throw new ForbiddenError();
  if (intent === "report-generate") {
    const parsed = ReportStorageSchema.safeParse({ volume_formula: form.get("volume_formula") || undefined });
    if (!parsed.success) return redirectWithToast(to, { type: "warning", key: "reports:alerts.chooseFormula" });
    const name = await storageReportName(ctx);
    const result = await startStorageReport(
      db(),
      ctx,
      storageId,
      { volume_formula: parsed.data.volume_formula, reported_at: todayIn(ctx.user.time_zone) },
      name,
      addJob,
    );
    const alert = addAlert(result);
    return redirectWithToast(to, {
      ...alert,
      key: alert.type === "error" ? alert.key : "reports:alerts.generating",
      values: { ...alert.values, name: result.report.name },
    });
  }
  const reportId = Number(form.get("report_id"));
  if (!Number.isInteger(reportId) || reportId <= 0)
    return redirectWithToast(to, { type: "warning", key: "reports:alerts.chooseReport" });
  if (intent === "report-add-storage")
    return redirectWithToast(to, addAlert(await addToReport(db(), ctx, reportId, { storageId }, addJob)));
  const parsed = ReportAddMeasurementsSchema.safeParse({ measurement_ids: ids });
  if (!parsed.success) return redirectWithToast(to, { type: "warning", key: "timber:bulk.nothingSelected" });
  return redirectWithToast(
    to,
    addAlert(await addToReport(db(), ctx, reportId, { measurementIds: parsed.data.measurement_ids }, addJob)),
  );
}
