import { json } from "@remix-run/node";
import type { z } from "zod";
import type { ExportKind } from "#db/schema";
import { listExports, serializeExport } from "~/models/export.server";
import { storageBelongs, type Selection } from "~/models/export-rows.server";
import { EmptySelectionError, removeExport, requestExport } from "~/services/exports.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import type { ExcelReportType, PdfReportType } from "~/utils/schemas/export";
import { fieldErrors, notFound, readJson } from "./api.server";
import type { AuthContext } from "./auth.server";
import { db } from "./db.server";
import { isFormPost, safeRedirectPath } from "./request.server";
import { redirectWithToast } from "./toast.server";

// The shared body of POST /excel_exports, /pdf_exports and /pdf_exports/{id}: JSON for API
// clients, a plain form post (the ExportButton without JavaScript) answered with a redirect
// and the spec's toasts ("being prepared", or the Excel / PDF failure text).

const EMPTY = { error: "validation_failed", errors: { measurement_ids: ["exports:errors.emptySelection"] } };

export async function handleExportPost<S extends z.ZodType>(
  request: Request,
  ctx: AuthContext,
  kind: ExportKind,
  schema: S,
  toRequest: (input: z.infer<S>) => { reportType: ExcelReportType | PdfReportType; selection: Selection },
  extra: Record<string, unknown> = {},
) {
  const form = isFormPost(request);
  const raw = (await readJson(request)) as Record<string, unknown>;
  const redirectTo = safeRedirectPath(typeof raw.redirectTo === "string" ? raw.redirectTo : null, "/exports");
  const failed = () => redirectWithToast(redirectTo, { type: "error", key: kind === "excel" ? "exports:toast.excelFailed" : "exports:toast.pdfFailed" });

  const parsed = schema.safeParse({ ...raw, ...extra });
  if (!parsed.success) {
    if (form) return failed();
    return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  }
  const { reportType, selection } = toRequest(parsed.data);
  // A storage of another organisation is not found, like every other record of it.
  if (selection.storage_id !== undefined && !(await storageBelongs(db(), ctx.organizationId, selection.storage_id))) {
    if (form) return failed();
    notFound();
  }
  try {
    const row = await requestExport(db(), ctx, addJob, { kind, reportType, selection });
    if (form) return redirectWithToast(redirectTo, { type: "info", key: "exports:toast.preparing" });
    return json(serializeExport(row), { status: 201 });
  } catch (error) {
    if (!(error instanceof EmptySelectionError)) throw error;
    if (form) return failed();
    return json(EMPTY, { status: 422 });
  }
}

export async function handleExportList(request: Request, ctx: AuthContext, kind: ExportKind) {
  const url = new URL(request.url);
  const rows = await listExports(db(), ctx, { kind, q: url.searchParams.get("q") ?? undefined });
  return json({ exports: rows.map(serializeExport) });
}

/** DELETE /{kind}_exports/{id}: the owner or an organisation admin; another organisation's is 404. */
export async function handleExportDelete(ctx: AuthContext, kind: ExportKind, id: number) {
  const result = await removeExport(db(), fileStorage(), ctx, id, kind);
  if (result === "not_found") notFound();
  if (result === "forbidden") throw json({ error: "forbidden", message: "Only the owner or an admin can delete an export" }, { status: 403 });
  return new Response(null, { status: 204 });
}
