import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireOwnStorage } from "~/models/report.server";
import { addJob } from "~/services/jobs.server";
import { startStorageReport } from "~/services/reports.server";
import { methodNotAllowed, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { storageReportName, todayIn } from "~/utils/reports.server";
import { ReportStorageSchema } from "~/utils/schemas/reports";
import { REPORTS_FEATURE, reportCall } from "./__reports-api.server";

/**
 * POST /reports/storage/{id} {volume_formula}: a report of the storage's measurements (in m³,
 * dated today), generating. Answer: generating_in_progress, id, name, and the add counts.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const storageId = parseId(params.id);
  // Another organisation's storage is not found, whatever the caller's plan or role.
  await withAppErrors(() => requireOwnStorage(db(), ctx, storageId));
  requireFeature(ctx, REPORTS_FEATURE);
  requireOrgAdmin(ctx);
  const body = await parseBody(request, ReportStorageSchema);
  const name = await storageReportName(ctx);
  const { report, ...measurements } = await reportCall(() =>
    startStorageReport(db(), ctx, storageId, { ...body, reported_at: todayIn(ctx.user.time_zone) }, name, addJob),
  );
  return json(
    { generating_in_progress: report.generating_in_progress, id: report.id, name: report.name, measurements },
    { status: 201 },
  );
}

export function loader() {
  return methodNotAllowed();
}
