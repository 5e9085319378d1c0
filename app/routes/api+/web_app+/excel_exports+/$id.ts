import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getExport, serializeExport } from "~/models/export.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { handleExportDelete } from "~/utils/export-request.server";
import { i18nServer } from "~/utils/i18n.server";

/** GET /api/web_app/excel_exports/{id}: one export with its status and progress (the notices poll it). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const row = await getExport(db(), ctx, parseId(params.id), "excel");
  if (!row) notFound();
  return json(serializeExport(row, await i18nServer.getFixedT(ctx.user.locale, "exports")));
}

/** DELETE /api/web_app/excel_exports/{id}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  if (request.method !== "DELETE") methodNotAllowed();
  return handleExportDelete(ctx, "excel", id);
}
