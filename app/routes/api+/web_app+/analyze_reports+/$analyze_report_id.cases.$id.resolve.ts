import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getCase, resolveCase, serializeCase } from "~/models/analyze-report.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";

/** POST /api/web_app/analyze_reports/{analyze_report_id}/cases/{id}/resolve: the answer carries resolved_at. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const reportId = parseId(params.analyze_report_id);
  const caseId = parseId(params.id);
  // Another organisation's case is 404 whatever the caller's plan: looked up before the feature.
  if (!(await getCase(db(), ctx, reportId, caseId))) notFound();
  requireFeature(ctx, "duplicate_storage_measurements");
  const row = await withAppErrors(() => resolveCase(db(), ctx, reportId, caseId));
  return json({ data: serializeCase(row) });
}

export function loader() {
  return methodNotAllowed();
}
