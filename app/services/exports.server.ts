import { PassThrough } from "node:stream";
import { isVolumeUnit } from "~/domain";
import {
  createExport,
  deleteExport,
  finishExport,
  getExport,
  loadExportForJob,
  noteExportProgress,
  serializeExport,
  type ExportJobRow,
} from "~/models/export.server";
import { enqueueExportJob } from "~/services/jobs.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { encodeDetail, type DetailPart } from "~/utils/export-detail";
import { i18nServer } from "~/utils/i18n.server";
import { createPrintToken } from "~/utils/print-token.server";
import { wallClock } from "./excel-reports.server";
import { findExportType } from "./exports/registry.server";
import { printPdf } from "./pdf.server";
import { publish } from "./realtime.server";
import type { ExportKind, ExportType } from "./exports/types";
import type { FileStorage } from "./file-storage.server";
import type { AddJobFunction } from "graphile-worker";

// The export engine: a request makes a row (status 0) and a job keyed by it; the job asks the
// row's report type (exports/registry.server.ts) for its rows and its file, writes the file
// through the storage port (temporary name, then rename: a killed worker leaves no half file),
// sets status 1, 2 (partially done: what was left out) or 3 (failed: why) and tells the owner on
// user:{id} with excel-export-created / pdf-export-created. Nothing here knows a report type.

export class EmptySelectionError extends Error {}
export class SelectionNotFoundError extends Error {}

type Ctx = Pick<AuthContext, "organizationId" | "userId" | "user"> &
  Partial<Pick<AuthContext, "roles" | "isAdmin" | "organization">>;

async function exportName(ctx: Ctx, type: ExportType, extra?: string) {
  const t = await i18nServer.getFixedT(ctx.user.locale, "exports");
  const when = wallClock(new Date(), ctx.user.time_zone).toISOString().slice(0, 16).replace("T", " ");
  return [t(type.labelKey), extra, when].filter(Boolean).join(" ");
}

/**
 * Records an export of `type` over `selection` (as its schema read it) and queues its job.
 * Throws SelectionNotFoundError when the selection names another organisation's record and
 * EmptySelectionError when it selects nothing.
 */
export async function requestExport(
  db: DB,
  ctx: Ctx,
  addJob: AddJobFunction,
  input: { type: ExportType; selection: unknown },
) {
  const { type } = input;
  const checked = await type.source.request(db, ctx, input.selection);
  if (checked === "not_found") throw new SelectionNotFoundError();
  if (checked.count === 0) throw new EmptySelectionError();
  const row = await createExport(db, ctx, {
    kind: type.kind,
    reportType: type.reportType,
    name: await exportName(ctx, type, type.nameSuffix?.(checked.selection)),
    params: { ...(checked.selection as Record<string, unknown>) },
  });
  await enqueueExportJob(type.kind, row.id, addJob);
  return row;
}

function fileKey(row: ExportJobRow, ext: "xlsx" | "pdf") {
  const slug =
    row.name
      .normalize("NFKD")
      .replace(/[^a-zA-Z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60)
      .toLowerCase() || "export";
  return `organizations/${row.organization_id}/exports/${row.id}/${slug}.${ext}`;
}

async function announce(db: DB, row: ExportJobRow) {
  const fresh = await getExport(db, { organizationId: row.organization_id }, row.id);
  if (!fresh || !fresh.user_id) return;
  await publish(`user:${fresh.user_id}`, `${fresh.kind}-export-created`, { export: serializeExport(fresh) });
}

export async function runExport(
  db: DB,
  storage: FileStorage,
  exportId: number,
  job: { attempts: number; maxAttempts: number },
) {
  const row = await loadExportForJob(db, exportId);
  if (!row || row.status !== 0) return; // deleted, or finished by an earlier run
  const t = await i18nServer.getFixedT(row.locale ?? "en", ["exports", "lookups", "trucks"]);
  const fail = async (part: DetailPart) => {
    await finishExport(db, row.id, { status: 3, detail: encodeDetail([part]) });
    await announce(db, row);
  };
  const type = findExportType(row.report_type);
  // A type taken out of the registry since the request: nothing can make its file.
  if (!type || type.kind !== row.kind)
    return fail({ key: "exports:detail.failed", params: { reason: row.report_type } });
  try {
    await noteExportProgress(db, row.id, 0);
    const selection = type.source.revive(row.params);
    const rows = await type.source.prepare(db, row.organization_id, selection, t);
    if (rows.records === 0) return fail({ key: "exports:detail.nothingLeft" });

    let key: string;
    let rowCount: number | null;
    if (type.kind === "excel") {
      key = fileKey(row, "xlsx");
      const out = new PassThrough();
      const writing = (async () => {
        try {
          return await type.write(out, {
            db,
            organizationId: row.organization_id,
            selection,
            t,
            precision: row.rounding_precision ?? 2,
            volumeUnit: isVolumeUnit(row.volume_unit) ? row.volume_unit : "m^3",
            timeZone: row.time_zone ?? "UTC",
            expectedRows: rows.expectedRows,
            onProgress: (fraction: number) => noteExportProgress(db, row.id, fraction * 100),
          });
        } catch (error) {
          out.destroy(error as Error);
          throw error;
        }
      })();
      const [, result] = await Promise.all([storage.put(key, out), writing]);
      rowCount = result.rowCount;
    } else {
      key = fileKey(row, "pdf");
      const url = new URL(type.printPath, env().APP_URL);
      url.searchParams.set("token", createPrintToken(row.id, row.organization_id));
      url.searchParams.set("lng", row.locale ?? "en");
      await storage.put(key, await printPdf(url.toString(), { margin: type.pageMargin }));
      rowCount = rows.records;
    }
    const stat = await storage.stat(key);
    await finishExport(db, row.id, {
      status: rows.leftOut.length ? 2 : 1,
      detail: encodeDetail(rows.leftOut),
      fileKey: key,
      fileSize: stat?.size ?? null,
      rowCount,
    });
    await announce(db, row);
  } catch (error) {
    // graphile-worker retries with exponential backoff; after the last attempt the row shows why.
    if (job.attempts >= job.maxAttempts)
      await fail({
        key: "exports:detail.failed",
        params: { reason: (error instanceof Error ? error.message : String(error)).slice(0, 500) },
      });
    throw error;
  }
}

/** Deletes an export and its file: its owner or an organisation admin may. */
export async function removeExport(
  db: DB,
  storage: FileStorage,
  ctx: Pick<AuthContext, "organizationId" | "userId" | "isAdmin">,
  id: number,
  kind?: ExportKind,
) {
  const row = await getExport(db, ctx, id, kind);
  if (!row) return "not_found" as const;
  if (row.user_id !== ctx.userId && !ctx.isAdmin) return "forbidden" as const;
  await deleteExport(db, ctx, id, kind);
  if (row.file_key) await storage.delete(row.file_key);
  return "deleted" as const;
}
