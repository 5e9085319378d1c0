import { json } from "@remix-run/node";
import type { ExportKind } from "#db/schema";
import { listExports, serializeExport } from "~/models/export.server";
import { parseExportRequest } from "~/services/exports/registry.server";
import { EmptySelectionError, removeExport, requestExport, SelectionNotFoundError } from "~/services/exports.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import { forbidden } from "~/utils/errors";
import { i18nServer } from "~/utils/i18n.server";
import { notFound, readJson } from "./api.server";
import { db } from "./db.server";
import { isFormPost } from "./request.server";
import { safeRedirect } from "./safe-redirect";
import { withZonedFilterDays } from "./schemas/timber";
import { redirectWithToast } from "./toast.server";
import type { AuthContext } from "./auth-context";

// The shared body of POST /excel_exports, /pdf_exports and /pdf_exports/{id}: the report type
// and its selection are read by the registry (app/services/exports/registry.server.ts); JSON
// for API clients, a plain form post (the ExportButton without JavaScript) answered with a
// redirect and the spec's toasts ("being prepared", or the Excel / PDF failure text).

const EMPTY = { error: "validation_failed", errors: { measurement_ids: ["exports:errors.emptySelection"] } };

/**
 * `pathId`: the {id} of POST /pdf_exports/{id}, the record the type's pathKey names. A path id
 * that selects nothing the caller may see is not found (404), where a body's ids would be 422.
 */
export async function handleExportPost(
  request: Request,
  ctx: AuthContext,
  kind: ExportKind,
  opts: { pathId?: number } = {},
) {
  const form = isFormPost(request);
  const body = await readJson(request);
  // A JSON null, array or number selects nothing: the registry answers 422 for the empty selection.
  const raw: Record<string, unknown> = body && typeof body === "object" && !Array.isArray(body) ? { ...body } : {};
  const redirectTo = safeRedirect(raw.redirectTo, "/exports");
  const failed = () =>
    redirectWithToast(redirectTo, {
      type: "error",
      key: kind === "excel" ? "exports:toast.excelFailed" : "exports:toast.pdfFailed",
    });

  const parsed = parseExportRequest(kind, withZonedFilterDays(raw, ctx.user.time_zone), ctx.features, {
    pathId: opts.pathId,
  });
  if (!parsed.ok) {
    if (form) return failed();
    return json(parsed.refusal, { status: 422 });
  }
  try {
    const row = await requestExport(db(), ctx, addJob, { type: parsed.type, selection: parsed.selection });
    if (form) return redirectWithToast(redirectTo, { type: "info", key: "exports:toast.preparing" });
    return json(serializeExport(row), { status: 201 });
  } catch (error) {
    if (!(error instanceof SelectionNotFoundError || error instanceof EmptySelectionError)) throw error;
    // The record of the path is missing or another organisation's: not found, for forms too.
    if (opts.pathId !== undefined) notFound();
    if (form) return failed();
    if (error instanceof SelectionNotFoundError) notFound();
    return json(EMPTY, { status: 422 });
  }
}

export async function handleExportList(request: Request, ctx: AuthContext, kind: ExportKind) {
  const url = new URL(request.url);
  const rows = await listExports(db(), ctx, { kind, q: url.searchParams.get("q") ?? undefined });
  const t = await i18nServer.getFixedT(ctx.user.locale, "exports");
  return json({ exports: rows.map((r) => serializeExport(r, t)) });
}

/** DELETE /{kind}_exports/{id}: the owner or an organisation admin; another organisation's is 404. */
export async function handleExportDelete(ctx: AuthContext, kind: ExportKind, id: number) {
  const result = await removeExport(db(), fileStorage(), ctx, id, kind);
  if (result === "not_found") notFound();
  if (result === "forbidden") forbidden();
  return new Response(null, { status: 204 });
}
