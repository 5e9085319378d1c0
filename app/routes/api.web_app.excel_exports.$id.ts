import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { handleExportDelete } from "~/utils/export-request.server";

/** DELETE /api/web_app/excel_exports/{id}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  if (request.method !== "DELETE") methodNotAllowed();
  return handleExportDelete(ctx, "excel", id);
}
