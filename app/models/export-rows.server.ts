import { sql, type ExpressionBuilder, type SqlBool, type Expression } from "kysely";
import type { Database } from "#db/schema";
import type { DB } from "~/utils/db.server";
import type { DashboardFilter } from "~/utils/schemas/timber";
import { measurementFilterWhere } from "./timber-dashboard.server";

/** The organisation a call acts for: an AuthContext, or a job's or webhook's own { organizationId }. */
type Org = { organizationId: number };

// The rows exports are made of. A selection is what the user asked for: explicit measurement
// ids, one storage, or the timber dashboard's filters (GET /dashboard_filter's parameter names).
// Every query is scoped by the export's organisation and skips deleted measurements and logs.

export interface Selection {
  measurement_ids?: number[];
  storage_id?: number;
  /** The timber dashboard's filter (DashboardFilterSchema), with the custom field keys it may use. */
  filters?: DashboardFilter;
  customFieldKeys?: string[];
}

const FILTER_DATES = [
  "taken_at_start",
  "taken_at_end",
  "measured_at_start",
  "measured_at_end",
  "created_at_start",
  "created_at_end",
] as const;

/** A selection as stored in the export row's JSON (filter dates come back as ISO strings). */
export function selectionFromParams(params: unknown): Selection {
  const selection = { ...(params as Selection) };
  if (selection.filters) {
    const filters = { ...selection.filters } as Record<string, unknown>;
    for (const key of FILTER_DATES)
      if (typeof filters[key] === "string") filters[key] = new Date(filters[key] as string);
    selection.filters = filters as DashboardFilter;
  }
  return selection;
}

type MEb = ExpressionBuilder<Database & { m: Database["measurements"] }, "m">;

/** The WHERE of a selection over `measurements as m`. */
export function selectionWhere(eb: MEb, organizationId: number, selection: Selection): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb("m.organization_id", "=", organizationId), eb("m.deleted_at", "is", null)];
  if (selection.measurement_ids) {
    parts.push(selection.measurement_ids.length ? eb("m.id", "in", selection.measurement_ids) : sql<SqlBool>`false`);
  }
  if (selection.storage_id !== undefined) parts.push(eb("m.storage_id", "=", selection.storage_id));
  if (selection.filters)
    parts.push(measurementFilterWhere(eb, selection.filters, new Set(selection.customFieldKeys ?? [])));
  return eb.and(parts);
}

/** Ids of the selected measurements (the organisation's, not deleted), in id order. */
export async function selectedMeasurementIds(db: DB, ctx: Org, selection: Selection, limit = 100_000) {
  const rows = await db
    .selectFrom("measurements as m")
    .select("m.id")
    .where((eb) => selectionWhere(eb, ctx.organizationId, selection))
    .orderBy("m.id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function countSelected(db: DB, ctx: Org, selection: Selection) {
  const row = await db
    .selectFrom("measurements as m")
    .select((eb) => [eb.fn.countAll<number>().as("measurements"), eb.fn.sum<number>("m.logs_count").as("logs")])
    .where((eb) => selectionWhere(eb, ctx.organizationId, selection))
    .executeTakeFirstOrThrow();
  return { measurements: Number(row.measurements), logs: Number(row.logs ?? 0) };
}

export async function storageBelongs(db: DB, ctx: Org, storageId: number) {
  const row = await db
    .selectFrom("storages")
    .select("id")
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Every kept log of the selection with its measurement, storage, assortment and cull, in
 * measurement then log order, with memory flat however many logs there are.
 * The measurements of the selection are streamed in id order and taken in batches of about
 * 50,000 logs; each batch's logs are streamed from the logs table alone (index on
 * measurement_id), so MySQL sorts one batch at a time instead of a temporary table of every log
 * (a join ordered by log sorted all of them: 3 s per 400,000 logs, growing with the export).
 * The organisation's few assortment and cull names come from maps instead of joins.
 */
export async function* streamLogRows(
  db: DB,
  ctx: Org,
  selection: Selection,
  opts: { pixels?: boolean } = {},
): AsyncGenerator<LogRow> {
  const [assortments, culls] = await Promise.all([
    db
      .selectFrom("assortments")
      .select(["id", "name"])
      .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
      .execute(),
    db
      .selectFrom("culls")
      .select(["id", "reason"])
      .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
      .execute(),
  ]);
  const assortmentName = new Map(assortments.map((a) => [a.id, a.name]));
  const cullReason = new Map(culls.map((c) => [c.id, c.reason]));
  const measurements = db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .select([
      "m.id",
      "s.name as storage_name",
      "m.taken_at",
      "m.log_length",
      "m.volume_formula",
      "m.coefficient",
      "m.logs_count",
    ])
    .where((eb) => selectionWhere(eb, ctx.organizationId, selection))
    .orderBy("m.id")
    .stream(500);
  const base = ["id", "measurement_id", "d", "v", "assortment_id", "cull_id"] as const;
  type M = {
    id: number;
    storage_name: string;
    taken_at: Date;
    log_length: number | null;
    volume_formula: string;
    coefficient: number | null;
  };

  async function* batchLogs(batch: Map<number, M>): AsyncGenerator<LogRow> {
    const logs = db
      .selectFrom("logs")
      .select(opts.pixels ? [...base, "x", "y", "r"] : [...base])
      .where("organization_id", "=", ctx.organizationId)
      .where("measurement_id", "in", [...batch.keys()])
      .where("is_deleted", "=", false)
      .orderBy("measurement_id")
      .orderBy("id")
      .stream(5000);
    for await (const l of logs) {
      const m = batch.get(l.measurement_id)!;
      const p = l as typeof l & { x?: number; y?: number; r?: number };
      yield {
        storage_name: m.storage_name,
        measurement_id: m.id,
        taken_at: m.taken_at,
        log_length: m.log_length,
        volume_formula: m.volume_formula,
        coefficient: m.coefficient,
        log_id: l.id,
        x: p.x ?? null,
        y: p.y ?? null,
        r: p.r ?? null,
        d: l.d,
        v: l.v,
        assortment_name: l.assortment_id === null ? null : (assortmentName.get(l.assortment_id) ?? null),
        cull_reason: l.cull_id === null ? null : (cullReason.get(l.cull_id) ?? null),
      };
    }
  }

  let batch = new Map<number, M>();
  let batchLogsCount = 0;
  for await (const m of measurements) {
    batch.set(m.id, m);
    batchLogsCount += m.logs_count;
    if (batchLogsCount >= 50_000 || batch.size >= 1_000) {
      yield* batchLogs(batch);
      batch = new Map();
      batchLogsCount = 0;
    }
  }
  if (batch.size) yield* batchLogs(batch);
}
export type LogRow = {
  storage_name: string;
  measurement_id: number;
  taken_at: Date;
  log_length: number | null;
  volume_formula: string;
  coefficient: number | null;
  log_id: number;
  x: number | null;
  y: number | null;
  r: number | null;
  d: number;
  v: number;
  assortment_name: string | null;
  cull_reason: string | null;
};

/** Measurements with their storage and lookups: the columns every export shows of a measurement. */
function measurementsWithLookups(db: DB) {
  return db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .leftJoin("wood_types as wt", "wt.id", "m.wood_type_id")
    .leftJoin("wood_qualities as wq", "wq.id", "m.wood_quality_id")
    .leftJoin("assortments as a", "a.id", "m.assortment_id")
    .select([
      "m.id",
      "s.name as storage_name",
      "m.taken_at",
      "m.measured_at",
      "m.measurement_type_id",
      "wt.id as wood_type_id",
      "wt.name as wood_type_name",
      "wt.organization_id as wood_type_org",
      "wq.id as wood_quality_id",
      "wq.name as wood_quality_name",
      "wq.organization_id as wood_quality_org",
      "a.name as assortment_name",
      "m.log_length",
      "m.logs_count",
      "m.volume",
      "m.volume_formula",
      "m.coefficient",
      "m.comment",
    ]);
}

/** The dashboard's measurement rows with their lookups, streamed. */
export function streamDashboardRows(db: DB, ctx: Org, selection: Selection) {
  return measurementsWithLookups(db)
    .where((eb) => selectionWhere(eb, ctx.organizationId, selection))
    .orderBy("s.name")
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .stream(1000);
}

/** Totals per storage and volume formula of the selection (the dashboard's storage rows). */
export async function storageTotals(db: DB, ctx: Org, selection: Selection) {
  return db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .select((eb) => [
      "s.id",
      "s.name",
      "s.storage_state_id",
      "m.volume_formula",
      eb.fn.countAll<number>().as("measurements_count"),
      eb.fn.sum<number>("m.logs_count").as("logs_count"),
      eb.fn.sum<number>("m.volume").as("volume"),
    ])
    .where((eb) => selectionWhere(eb, ctx.organizationId, selection))
    .groupBy(["s.id", "s.name", "s.storage_state_id", "m.volume_formula"])
    .orderBy("s.name")
    .execute();
}

/** Everything the measurement PDF shows, for the organisation's measurements among `ids`. */
export async function loadMeasurementsForPrint(db: DB, ctx: Org, ids: number[]) {
  if (!ids.length) return [];
  const measurements = await measurementsWithLookups(db)
    .select([
      "m.latitude",
      "m.longitude",
      "m.photo_key",
      "m.photo_popup_key",
      "m.photo_optimized_key",
      "m.photo_width",
      "m.photo_height",
    ])
    .where("m.organization_id", "=", ctx.organizationId)
    .where("m.deleted_at", "is", null)
    .where("m.id", "in", ids)
    .orderBy("m.id")
    .execute();
  if (!measurements.length) return [];
  const found = measurements.map((m) => m.id);
  const [logs, references] = await Promise.all([
    db
      .selectFrom("logs")
      .select(["id", "measurement_id", "x", "y", "r", "d", "v", "cull_id", "assortment_id", "modified_at"])
      .where("organization_id", "=", ctx.organizationId)
      .where("measurement_id", "in", found)
      .where("is_deleted", "=", false)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("measurement_references")
      .select(["measurement_id", "x1", "y1", "x2", "y2", "size"])
      .where("organization_id", "=", ctx.organizationId)
      .where("measurement_id", "in", found)
      .execute(),
  ]);
  return measurements.map((m) => ({
    ...m,
    logs: logs.filter((l) => l.measurement_id === m.id),
    references: references.filter((r) => r.measurement_id === m.id),
  }));
}
export type PrintMeasurement = Awaited<ReturnType<typeof loadMeasurementsForPrint>>[number];

/** Which of `ids` still exist in the organisation, and whether each has a photo. */
export async function measurementPresence(db: DB, ctx: Org, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom("measurements")
    .select(["id", "photo_key"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
}
