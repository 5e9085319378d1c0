import { sql, type Transaction } from "kysely";
import type { Database, MixedStackCategory } from "#db/schema";
import { mixedStackFigures, type MixedStackFigures } from "~/domain/mixed-stack";
import { photoUrl } from "~/models/measurement-photo.server";
import { createPublicLink, publicTokensOf } from "~/models/public-link.server";
import { EDITING_ROLES } from "~/models/role.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/utils/errors";

// Mixed stack reports (docs/decisions/020-mixed-stack-reports.md): a delivery of mixed logs
// summarised for the buyer. A report has a name and the delivered tons; timber measurements of
// the organisation are attached as close_up (log ends: the diameters) or far_away (the whole
// stack: its volume). Figures come from app/domain/mixed-stack.ts. Every query is scoped by the
// caller's organisation; a report of another organisation is a NotFoundError.

type Executor = DB | Transaction<Database>;
type Ctx = Pick<AuthContext, "organizationId">;
type EditorCtx = Pick<AuthContext, "organizationId" | "roles">;

/** Editing (create, rename, tons, attach, remove, share) needs measurer, admin or super_admin on the organisation. */
export function canEditMixedStackReports(ctx: EditorCtx) {
  return ctx.roles.some(
    (r) =>
      EDITING_ROLES.includes(r.name) && r.assignable_type === "Organization" && r.assignable_id === ctx.organizationId,
  );
}

export function requireMixedStackEditor(ctx: EditorCtx) {
  if (!canEditMixedStackReports(ctx)) throw new ForbiddenError();
}

export interface MixedStackMeasurementItem {
  id: number;
  photo_thumbnail: string | null;
  log_count: number;
  taken_at: Date;
  /** Solid m³ as stored on the measurement. */
  volume: number;
}

export interface MixedStackReport {
  id: number;
  name: string;
  total_delivery_tons: number | null;
  created_at: Date;
  updated_at: Date;
  public_token: string | null;
  log_count: number;
  min_diameter: number | null;
  max_diameter: number | null;
  average_diameter: number | null;
  average_jas: number | null;
  far_away_volume: number;
  tons_per_m3: number | null;
  m3_per_ton: number | null;
  measurements_data: { close_up: MixedStackMeasurementItem[]; far_away: MixedStackMeasurementItem[] };
}

export interface MixedStackListRow {
  id: number;
  name: string;
  total_delivery_tons: number | null;
  created_at: Date;
  updated_at: Date;
  close_up_count: number;
  far_away_count: number;
}

export async function listMixedStackReports(db: Executor, ctx: Ctx): Promise<MixedStackListRow[]> {
  const rows = await db
    .selectFrom("mixed_stack_reports as r")
    .leftJoin("mixed_stack_report_measurements as rm", "rm.mixed_stack_report_id", "r.id")
    .leftJoin("measurements as m", (j) => j.onRef("m.id", "=", "rm.measurement_id").on("m.deleted_at", "is", null))
    .select([
      "r.id",
      "r.name",
      "r.total_delivery_tons",
      "r.created_at",
      "r.updated_at",
      sql<number>`COUNT(CASE WHEN rm.category = 'close_up' AND m.id IS NOT NULL THEN 1 END)`.as("close_up_count"),
      sql<number>`COUNT(CASE WHEN rm.category = 'far_away' AND m.id IS NOT NULL THEN 1 END)`.as("far_away_count"),
    ])
    .where("r.organization_id", "=", ctx.organizationId)
    .groupBy(["r.id", "r.name", "r.total_delivery_tons", "r.created_at", "r.updated_at"])
    .orderBy("r.updated_at", "desc")
    .orderBy("r.id", "desc")
    .execute();
  return rows.map((r) => ({
    ...r,
    total_delivery_tons: r.total_delivery_tons === null ? null : Number(r.total_delivery_tons),
    close_up_count: Number(r.close_up_count),
    far_away_count: Number(r.far_away_count),
  }));
}

async function reportRow(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom("mixed_stack_reports")
    .select(["id", "name", "total_delivery_tons", "created_at", "updated_at"])
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
}

export async function mixedStackReportExists(db: Executor, organizationId: number, id: number) {
  return (await reportRow(db, organizationId, id)) !== undefined;
}

/** The report's attached live measurements (deleted ones drop out and come back when restored). */
async function attachedMeasurements(db: Executor, organizationId: number, reportId: number) {
  return db
    .selectFrom("mixed_stack_report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .select(["m.id", "rm.category", "m.photo_thumbnail_key", "m.logs_count", "m.taken_at", "m.volume"])
    .where("rm.mixed_stack_report_id", "=", reportId)
    .where("rm.organization_id", "=", organizationId)
    .where("m.organization_id", "=", organizationId)
    .where("m.deleted_at", "is", null)
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .execute();
}

/** The report's figures and groups, read within one organisation (the screens, the API, the public page, Excel). */
export async function readMixedStackReport(
  db: Executor,
  organizationId: number,
  id: number,
): Promise<(Omit<MixedStackReport, "public_token"> & { figures: MixedStackFigures }) | undefined> {
  const row = await reportRow(db, organizationId, id);
  if (!row) return undefined;
  const attached = await attachedMeasurements(db, organizationId, id);
  const closeUpIds = attached.filter((a) => a.category === "close_up").map((a) => a.id);
  const logs = closeUpIds.length
    ? await db
        .selectFrom("logs")
        .select(["d", "is_deleted"])
        .where("organization_id", "=", organizationId)
        .where("measurement_id", "in", closeUpIds)
        .where("is_deleted", "=", false)
        .execute()
    : [];
  const farAwayVolume = attached.filter((a) => a.category === "far_away").reduce((s, a) => s + Number(a.volume), 0);
  const tons = row.total_delivery_tons === null ? null : Number(row.total_delivery_tons);
  const figures = mixedStackFigures(
    logs.map((l) => ({ d: Number(l.d), isDeleted: Boolean(l.is_deleted) })),
    farAwayVolume,
    tons,
  );
  const item = (a: (typeof attached)[number]): MixedStackMeasurementItem => ({
    id: a.id,
    photo_thumbnail: a.photo_thumbnail_key ? photoUrl("timber", a.id, "thumbnail") : null,
    log_count: a.logs_count,
    taken_at: a.taken_at,
    volume: Number(a.volume),
  });
  return {
    id: row.id,
    name: row.name,
    total_delivery_tons: tons,
    created_at: row.created_at,
    updated_at: row.updated_at,
    log_count: figures.logCount,
    min_diameter: figures.minDiameterCm,
    max_diameter: figures.maxDiameterCm,
    average_diameter: figures.averageDiameterCm,
    average_jas: figures.averageJasDiameterCm,
    far_away_volume: figures.farAwayVolumeM3,
    tons_per_m3: figures.tonsPerM3,
    m3_per_ton: figures.m3PerTon,
    measurements_data: {
      close_up: attached.filter((a) => a.category === "close_up").map(item),
      far_away: attached.filter((a) => a.category === "far_away").map(item),
    },
    figures,
  };
}

/** The spec's entity (GET /mixed_stack_reports/{id}), or undefined for another organisation's or a missing report. */
export async function getMixedStackReport(db: Executor, ctx: Ctx, id: number): Promise<MixedStackReport | undefined> {
  const report = await readMixedStackReport(db, ctx.organizationId, id);
  if (!report) return undefined;
  const tokens = await publicTokensOf(db, ctx, "mixed_stack_report", [id]);
  const { figures: _figures, ...rest } = report;
  return { ...rest, public_token: tokens.get(id) ?? null };
}

/**
 * A new report; `name` empty or missing takes `defaultName`. It is shared at once (the spec's
 * report carries its public_token); its owner rotates or stops the link on its page. Returns its id.
 */
export async function createMixedStackReport(
  db: DB,
  ctx: EditorCtx & Pick<AuthContext, "userId"> & { user: { time_zone: string } },
  values: { name?: string | null },
  defaultName: string,
): Promise<number> {
  requireMixedStackEditor(ctx);
  const name = values.name?.trim() ? values.name.trim() : defaultName;
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("mixed_stack_reports")
      .values({ organization_id: ctx.organizationId, name, created_by: ctx.userId })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    const maker = { organizationId: ctx.organizationId, userId: ctx.userId, timeZone: ctx.user.time_zone };
    await createPublicLink(trx, maker, "mixed_stack_report", id);
    return id;
  });
}

async function touch(db: Executor, organizationId: number, id: number) {
  await db
    .updateTable("mixed_stack_reports")
    .set({ updated_at: sql`CURRENT_TIMESTAMP(3)` as unknown as Date })
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .execute();
}

/** 404 for another organisation's or a missing report (before the role check: an outsider learns nothing). */
async function openForEdit(db: Executor, ctx: EditorCtx, id: number) {
  if (!(await mixedStackReportExists(db, ctx.organizationId, id))) throw new NotFoundError();
  requireMixedStackEditor(ctx);
}

export async function updateMixedStackReport(
  db: Executor,
  ctx: EditorCtx,
  id: number,
  values: { name?: string; total_delivery_tons?: number | null },
) {
  await openForEdit(db, ctx, id);
  await db
    .updateTable("mixed_stack_reports")
    .set({
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values.total_delivery_tons !== undefined ? { total_delivery_tons: values.total_delivery_tons } : {}),
      updated_at: sql`CURRENT_TIMESTAMP(3)` as unknown as Date,
    })
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .execute();
}

/**
 * Attaches the organisation's live timber measurements in a category (one already attached moves
 * to it). An id that is not such a measurement (another organisation's included) is a 422 naming
 * nothing of it, and nothing is attached.
 */
export async function addMixedStackMeasurements(
  db: DB,
  ctx: EditorCtx,
  id: number,
  category: MixedStackCategory,
  measurementIds: number[],
) {
  await openForEdit(db, ctx, id);
  const ids = [...new Set(measurementIds)];
  const found = await db
    .selectFrom("measurements")
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", ids)
    .execute();
  if (found.length !== ids.length)
    throw new ValidationError({ measurement_ids: ["mixed-stack:errors.unknownMeasurements"] });
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("mixed_stack_report_measurements")
      .values(
        ids.map((measurement_id) => ({
          organization_id: ctx.organizationId,
          mixed_stack_report_id: id,
          measurement_id,
          category,
        })),
      )
      .onDuplicateKeyUpdate({ category })
      .execute();
    await touch(trx, ctx.organizationId, id);
  });
  return ids.length;
}

/** Detaches measurements from the report (ids not in it are ignored). Returns how many were removed. */
export async function removeMixedStackMeasurements(db: DB, ctx: EditorCtx, id: number, measurementIds: number[]) {
  await openForEdit(db, ctx, id);
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom("mixed_stack_report_measurements")
      .where("mixed_stack_report_id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .where("measurement_id", "in", [...new Set(measurementIds)])
      .executeTakeFirst();
    await touch(trx, ctx.organizationId, id);
    return Number(r.numDeletedRows);
  });
}
