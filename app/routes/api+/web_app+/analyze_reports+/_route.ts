import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { listAnalyzeReports, serializeAnalyzeReport } from "~/models/analyze-report.server";
import { startAnalysis } from "~/services/duplicate-analysis.server";
import { addJob } from "~/services/jobs.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { AnalyzeReportRequestSchema } from "~/utils/schemas/analysis";

const FEATURE = "duplicate_storage_measurements";

/** GET /api/web_app/analyze_reports: the organisation's analyses, newest first (admins, with the feature). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  requireFeature(ctx, FEATURE);
  const rows = await listAnalyzeReports(db(), ctx);
  return json({ data: rows.map(serializeAnalyzeReport) });
}

/** POST /api/web_app/analyze_reports {analyze_report: {name, type_key, period_from, period_to, storage_ids, measurement_types}}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  requireFeature(ctx, FEATURE);
  const body = await parseBody(request, AnalyzeReportRequestSchema);
  const report = await withAppErrors(() => startAnalysis(db(), ctx, body.analyze_report, addJob));
  return json({ data: serializeAnalyzeReport(report) }, { status: 201 });
}
