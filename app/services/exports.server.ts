import { PassThrough } from "node:stream";
import type { AddJobFunction } from "graphile-worker";
import type { ExportKind } from "#db/schema";
import { enqueueExportJob } from "../../jobs/enqueue";
import { countSelected, measurementPresence, selectionFromParams, type Selection } from "~/models/export-rows.server";
import { searchableCustomFieldKeys } from "~/models/timber-dashboard.server";
import { dashboardFilterFromBody, selectsByFilters } from "~/utils/schemas/export";
import { createExport, deleteExport, finishExport, loadExportForJob, noteExportProgress, serializeExport, getExport, type ExportJobRow } from "~/models/export.server";
import { isVolumeUnit } from "~/domain";
import type { AuthContext } from "~/utils/auth.server";
import type { DB } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { i18nServer } from "~/utils/i18n.server";
import { createPrintToken } from "~/utils/print-token.server";
import type { ExcelExportInput, ExcelReportType, PdfReportType } from "~/utils/schemas/export";
import { writeDashboard, writeLogByLog, wallClock } from "./excel-reports.server";
import type { FileStorage } from "./file-storage.server";
import { printPdf } from "./pdf.server";
import { publish } from "./realtime.server";

// The export engine: a request makes a row (status 0) and a job keyed by it; the job writes the
// file through the storage port (temporary name, then rename: a killed worker leaves no half
// file), sets status 1, 2 (partially done: what was left out) or 3 (failed: why) and tells the
// owner on user:{id} with excel-export-created / pdf-export-created.

export class EmptySelectionError extends Error {}

type Ctx = Pick<AuthContext, "organizationId" | "userId" | "user">;

async function exportName(ctx: Ctx, reportType: string, extra?: string) {
  const t = await i18nServer.getFixedT(ctx.user.locale, "exports");
  const when = wallClock(new Date(), ctx.user.time_zone).toISOString().slice(0, 16).replace("T", " ");
  return [t(`types.${reportType}`), extra, when].filter(Boolean).join(" ");
}

/** The selection of an Excel request, from its one id (or the dashboard's filters). */
export function excelSelection(input: ExcelExportInput): Selection {
  if (selectsByFilters(input)) {
    const filter = dashboardFilterFromBody(input as Record<string, unknown>);
    return { filters: filter.success ? filter.data : {} };
  }
  if (input.measurement_ids) return { measurement_ids: input.measurement_ids };
  if (input.measurement_id !== undefined) return { measurement_ids: [input.measurement_id] };
  return { storage_id: input.storage_id };
}

export async function requestExport(
  db: DB,
  ctx: Ctx,
  addJob: AddJobFunction,
  input: { kind: ExportKind; reportType: ExcelReportType | PdfReportType; selection: Selection },
) {
  if (input.selection.filters) {
    input.selection.customFieldKeys = [...(await searchableCustomFieldKeys(db, { organizationId: ctx.organizationId }))];
  }
  const count = await countSelected(db, ctx.organizationId, input.selection);
  if (count.measurements === 0) throw new EmptySelectionError();
  const ids = input.selection.measurement_ids;
  const extra = ids?.length === 1 ? `#${ids[0]}` : undefined;
  const row = await createExport(db, ctx, {
    kind: input.kind,
    reportType: input.reportType,
    name: await exportName(ctx, input.reportType, extra),
    params: { ...input.selection },
  });
  await enqueueExportJob(input.kind, row.id, addJob);
  return row;
}

function fileKey(row: ExportJobRow, ext: "xlsx" | "pdf") {
  const slug = row.name.normalize("NFKD").replace(/[^a-zA-Z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60).toLowerCase() || "export";
  return `organizations/${row.organization_id}/exports/${row.id}/${slug}.${ext}`;
}

async function announce(db: DB, row: ExportJobRow) {
  const fresh = await getExport(db, { organizationId: row.organization_id }, row.id);
  if (!fresh || !fresh.user_id) return;
  await publish(`user:${fresh.user_id}`, `${fresh.kind}-export-created`, { export: serializeExport(fresh) });
}

/** What the requested ids lost since the request (deleted measurements), as "#1, #2". */
function missingIds(requested: number[] | undefined, found: number[]) {
  if (!requested) return [];
  const have = new Set(found);
  return requested.filter((id) => !have.has(id));
}

export async function runExport(db: DB, storage: FileStorage, exportId: number, job: { attempts: number; maxAttempts: number }) {
  const row = await loadExportForJob(db, exportId);
  if (!row || row.status !== 0) return; // deleted, or finished by an earlier run
  const t = await i18nServer.getFixedT(row.locale ?? "en", ["exports", "lookups"]);
  const selection = selectionFromParams(row.params);
  try {
    await noteExportProgress(db, row.id, 0);
    const requested = selection.measurement_ids;
    const found = requested ? (await measurementPresence(db, row.organization_id, requested)) : null;
    const missing = found ? missingIds(requested, found.map((m) => m.id)) : [];
    if (found && found.length === 0) {
      await finishExport(db, row.id, { status: 3, detail: t("detail.nothingLeft") });
      await announce(db, row);
      return;
    }
    const leftOut: string[] = [];
    if (missing.length) leftOut.push(t("detail.missing", { ids: missing.map((id) => `#${id}`).join(", ") }));

    let key: string;
    let rowCount: number | null = null;
    if (row.kind === "excel") {
      key = fileKey(row, "xlsx");
      const count = await countSelected(db, row.organization_id, selection);
      if (count.measurements === 0) {
        await finishExport(db, row.id, { status: 3, detail: t("detail.nothingLeft") });
        await announce(db, row);
        return;
      }
      const reportType = row.report_type as ExcelReportType;
      const ctx = {
        db,
        organizationId: row.organization_id,
        selection,
        t,
        precision: row.rounding_precision ?? 2,
        volumeUnit: isVolumeUnit(row.volume_unit) ? row.volume_unit : "m^3",
        timeZone: row.time_zone ?? "UTC",
        expectedRows: reportType === "dashboard_excel" ? count.measurements : count.logs,
        onProgress: (fraction: number) => noteExportProgress(db, row.id, fraction * 100),
      } as const;
      const out = new PassThrough();
      const writing = (async () => {
        try {
          const result = reportType === "dashboard_excel" ? await writeDashboard(out, ctx) : await writeLogByLog(out, ctx, reportType === "precise_log_by_log_excel");
          return result;
        } catch (error) {
          out.destroy(error as Error);
          throw error;
        }
      })();
      const [, result] = await Promise.all([storage.put(key, out), writing]);
      rowCount = result.rowCount;
    } else {
      key = fileKey(row, "pdf");
      const noPhoto = (found ?? []).filter((m) => !m.photo_key).map((m) => `#${m.id}`);
      if (noPhoto.length) leftOut.push(t("detail.noPhoto", { ids: noPhoto.join(", ") }));
      const url = new URL("/print/measurements", env().APP_URL);
      url.searchParams.set("token", createPrintToken(row.id, row.organization_id));
      url.searchParams.set("lng", row.locale ?? "en");
      const pdf = await printPdf(url.toString());
      await storage.put(key, pdf);
      rowCount = found?.length ?? null;
    }
    const stat = await storage.stat(key);
    await finishExport(db, row.id, {
      status: leftOut.length ? 2 : 1,
      detail: leftOut.length ? leftOut.join(" ") : null,
      fileKey: key,
      fileSize: stat?.size ?? null,
      rowCount,
    });
    await announce(db, row);
  } catch (error) {
    // graphile-worker retries with exponential backoff; after the last attempt the row shows why.
    if (job.attempts >= job.maxAttempts) {
      await finishExport(db, row.id, { status: 3, detail: t("detail.failed", { reason: error instanceof Error ? error.message : String(error) }) });
      await announce(db, row);
    }
    throw error;
  }
}


/** Deletes an export and its file: its owner or an organisation admin may. */
export async function removeExport(db: DB, storage: FileStorage, ctx: Pick<AuthContext, "organizationId" | "userId" | "isAdmin">, id: number, kind?: ExportKind) {
  const row = await getExport(db, ctx, id, kind);
  if (!row) return "not_found" as const;
  if (row.user_id !== ctx.userId && !ctx.isAdmin) return "forbidden" as const;
  await deleteExport(db, ctx, id, kind);
  if (row.file_key) await storage.delete(row.file_key);
  return "deleted" as const;
}
