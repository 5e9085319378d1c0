import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { handleExportList, handleExportPost } from "~/utils/export-request.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

/** GET /api/web_app/excel_exports: the organisation's Excel exports (?q= searches by name). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return handleExportList(request, ctx, "excel");
}

/** POST /api/web_app/excel_exports {report_type, and the selection that type takes}: see the export registry. */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "POST") methodNotAllowed();
  return handleExportPost(request, ctx, "excel");
}
