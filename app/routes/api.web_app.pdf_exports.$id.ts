import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getExport, serializeExport } from "~/models/export.server";
import { measurementPresence } from "~/models/export-rows.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { requireApiUser } from "~/utils/auth.server";
import { handleExportDelete, handleExportPost } from "~/utils/export-request.server";
import { PdfExportOneSchema } from "~/utils/schemas/export";

/** GET /api/web_app/pdf_exports/{id}: one export with its status and progress (the notices poll it). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const row = await getExport(db(), ctx, parseId(params.id), "pdf");
  if (!row) notFound();
  return json(serializeExport(row));
}

/**
 * POST /api/web_app/pdf_exports/{id} {report_type}: the PDF of measurement {id} (the
 * measurement detail's button). DELETE /api/web_app/pdf_exports/{id}: deletes PDF export {id}.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  if (request.method === "DELETE") return handleExportDelete(ctx, "pdf", id);
  if (request.method !== "POST") methodNotAllowed();
  // Another organisation's measurement (or a deleted one) is not found, whatever the body says.
  if ((await measurementPresence(db(), ctx.organizationId, [id])).length === 0) notFound();
  return handleExportPost(request, ctx, "pdf", PdfExportOneSchema, (input) => ({
    reportType: input.report_type,
    selection: { measurement_ids: [id] },
  }));
}
