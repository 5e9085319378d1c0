import type { Export, ExportKind, ExportStatus } from "#db/schema";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { detailText } from "~/utils/export-detail";
import type { TFunction } from "i18next";

// Export rows: what was asked for, by whom, and where the job stands. Every screen and API
// query is scoped by the caller's organisation; the job's own functions work by id.

type Ctx = Pick<AuthContext, "organizationId" | "userId">;

export const EXPORT_SORTS = ["name", "status", "created_at"] as const;
export type ExportSort = (typeof EXPORT_SORTS)[number];

export async function createExport(
  db: DB,
  ctx: Ctx,
  input: { kind: ExportKind; reportType: string; name: string; params: Record<string, unknown> },
): Promise<Export> {
  const r = await db
    .insertInto("exports")
    .values({
      organization_id: ctx.organizationId,
      user_id: ctx.userId,
      kind: input.kind,
      report_type: input.reportType,
      name: input.name.slice(0, 255),
      params: JSON.stringify(input.params),
      status: 0,
      heartbeat_at: new Date(),
    })
    .executeTakeFirstOrThrow();
  return db.selectFrom("exports").selectAll().where("id", "=", Number(r.insertId)).executeTakeFirstOrThrow();
}

export async function getExport(db: DB, ctx: Pick<Ctx, "organizationId">, id: number, kind?: ExportKind) {
  let q = db.selectFrom("exports").selectAll().where("id", "=", id).where("organization_id", "=", ctx.organizationId);
  if (kind) q = q.where("kind", "=", kind);
  return q.executeTakeFirst();
}

/** The organisation's exports (the spec: everyone sees the list), newest first unless sorted. */
export async function listExports(
  db: DB,
  ctx: Pick<Ctx, "organizationId">,
  opts: { kind?: ExportKind; q?: string; sort?: ExportSort; dir?: "asc" | "desc"; limit?: number } = {},
) {
  let q = db
    .selectFrom("exports as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .selectAll("e")
    .select(["u.name as user_name", "u.email as user_email"])
    .where("e.organization_id", "=", ctx.organizationId);
  if (opts.kind) q = q.where("e.kind", "=", opts.kind);
  const search = opts.q?.trim();
  if (search) q = q.where("e.name", "like", `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const dir = opts.dir ?? "desc";
  q = q.orderBy(`e.${opts.sort ?? "created_at"}`, dir).orderBy("e.id", dir);
  return q.limit(opts.limit ?? 200).execute();
}

export async function deleteExport(db: DB, ctx: Pick<Ctx, "organizationId">, id: number, kind?: ExportKind) {
  const row = await getExport(db, ctx, id, kind);
  if (!row) return undefined;
  await db.deleteFrom("exports").where("id", "=", row.id).where("organization_id", "=", ctx.organizationId).execute();
  return row;
}

export function exportDownloadUrl(id: number) {
  return `/exports/${id}/download`;
}

/** The spec's export record: id, name, user_id, status, url, created_at, report_type (+ progress and detail). */
/** With `t`, the status detail comes worded in that language (API answers); without, as stored. */
export function serializeExport(row: Export, t?: TFunction) {
  return {
    id: row.id,
    name: row.name,
    user_id: row.user_id,
    status: row.status,
    url: row.status === 1 || row.status === 2 ? exportDownloadUrl(row.id) : null,
    created_at: row.created_at,
    report_type: row.report_type,
    kind: row.kind,
    progress: row.progress,
    status_detail: t ? detailText(t, row.status_detail) : row.status_detail,
  };
}
export type SerializedExport = ReturnType<typeof serializeExport>;

// ---- the job's side (no user context: the row carries its organisation) ----

export async function loadExportForJob(db: DB, id: number) {
  return db
    .selectFrom("exports as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .selectAll("e")
    .select(["u.locale", "u.time_zone", "u.rounding_precision", "u.volume_unit"])
    .where("e.id", "=", id)
    .executeTakeFirst();
}
export type ExportJobRow = NonNullable<Awaited<ReturnType<typeof loadExportForJob>>>;

/** Progress 0-99 while writing; also the heartbeat that keeps the sweep away. */
export async function noteExportProgress(db: DB, id: number, progress: number) {
  await db
    .updateTable("exports")
    .set({ progress: Math.max(0, Math.min(99, Math.floor(progress))), heartbeat_at: new Date() })
    .where("id", "=", id)
    .where("status", "=", 0)
    .execute();
}

export async function finishExport(
  db: DB,
  id: number,
  result: {
    status: Exclude<ExportStatus, 0>;
    detail?: string | null;
    fileKey?: string | null;
    fileSize?: number | null;
    rowCount?: number | null;
  },
) {
  await db
    .updateTable("exports")
    .set({
      status: result.status,
      status_detail: result.detail ? result.detail.slice(0, 1000) : null,
      file_key: result.fileKey ?? null,
      file_size: result.fileSize ?? null,
      row_count: result.rowCount ?? null,
      progress: result.status === 3 ? 0 : 100,
      finished_at: new Date(),
    })
    .where("id", "=", id)
    .execute();
}

/** Exports still in progress whose job stopped beating (lost job, killed worker). */
export async function findStaleExports(db: DB, heartbeatBefore: Date, limit = 100) {
  return db
    .selectFrom("exports")
    .select(["id", "kind", "attempts"])
    .where("status", "=", 0)
    .where("heartbeat_at", "<", heartbeatBefore)
    .orderBy("heartbeat_at")
    .limit(limit)
    .execute();
}

export async function noteExportReenqueued(db: DB, id: number) {
  await db
    .updateTable("exports")
    .set((eb) => ({ heartbeat_at: new Date(), attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .execute();
}
