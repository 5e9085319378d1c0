import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { getAnalyzeReport, listCases, serializeAnalyzeReport } from "~/models/analyze-report.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /api/web_app/analyze_reports/{id}?page=n: the report and one page (5) of its cases. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  // Another organisation's report is 404 whatever the caller's plan: looked up before the feature.
  const report = await getAnalyzeReport(db(), ctx, parseId(params.id));
  if (!report) notFound();
  requireFeature(ctx, "duplicate_storage_measurements");
  const page = Number(new URL(request.url).searchParams.get("page")) || 1;
  const cases = await listCases(db(), ctx, report.id, page);
  return json({
    data: {
      ...serializeAnalyzeReport(report),
      cases: cases.cases,
      cases_page: cases.page,
      cases_pages: cases.pages,
      cases_total: cases.total,
    },
  });
}

export function action() {
  return methodNotAllowed();
}
