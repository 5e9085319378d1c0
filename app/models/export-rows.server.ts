import { sql, type ExpressionBuilder, type SqlBool, type Expression } from "kysely";
import type { Database } from "#db/schema";
import type { DB } from "~/utils/db.server";

// The rows exports are made of. A selection is what the user asked for: explicit measurement
// ids, one storage, or the timber dashboard's filters (GET /dashboard_filter's parameter names).
// Every query is scoped by the export's organisation and skips deleted measurements and logs.

export interface DashboardFilters {
  storage_ids?: number[];
  measurement_ids?: number[];
  measurement_type_ids?: number[];
  wood_type_ids?: number[];
  wood_characteristic_ids?: number[];
  taken_at_start?: string;
  taken_at_end?: string;
  measured_at_start?: string;
  measured_at_end?: string;
  created_at_start?: string;
  created_at_end?: string;
}

export interface Selection {
  measurement_ids?: number[];
  storage_id?: number;
  filters?: DashboardFilters;
}

const ID_LIST_KEYS = ["storage_ids", "measurement_ids", "measurement_type_ids", "wood_type_ids", "wood_characteristic_ids"] as const;
const DATE_KEYS = ["taken_at_start", "taken_at_end", "measured_at_start", "measured_at_end", "created_at_start", "created_at_end"] as const;

function idList(value: unknown): number[] | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const parts = Array.isArray(value) ? value : String(value).split(",");
  const ids = parts.map((p) => Number(String(p).trim())).filter((n) => Number.isInteger(n) && n >= 0);
  return ids.length ? [...new Set(ids)] : undefined;
}

/** dd.MM.yyyy (the dashboard's format) or ISO yyyy-MM-dd[THH:mm...], as an ISO date string. */
function isoDate(value: unknown): string | undefined {
  if (typeof value !== "string" || !value.trim()) return undefined;
  const v = value.trim();
  const et = v.match(/^(\d{1,2})\.(\d{1,2})\.(\d{4})$/);
  if (et) return `${et[3]}-${et[2].padStart(2, "0")}-${et[1].padStart(2, "0")}`;
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/.test(v) && !Number.isNaN(Date.parse(v))) return v;
  return undefined;
}

/**
 * The dashboard's filters from a request body or query (arrays or comma-separated ids; dates
 * dd.MM.yyyy or ISO). Unknown keys and unreadable values are dropped. Kept in one function so
 * the dashboard's own filter parser can replace it.
 */
export function parseDashboardFilters(input: Record<string, unknown>): DashboardFilters {
  const out: DashboardFilters = {};
  for (const key of ID_LIST_KEYS) {
    const ids = idList(input[key]);
    if (ids) out[key] = ids;
  }
  for (const key of DATE_KEYS) {
    const d = isoDate(input[key]);
    if (d) out[key] = d;
  }
  return out;
}

/** Start of a day given as a date, or the instant itself (UTC). */
function startOf(value: string) {
  return new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
}
/** End dates are inclusive: a plain date means up to the end of that day (UTC). */
function endOf(value: string) {
  return value.length === 10 ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}

type MEb = ExpressionBuilder<Database & { m: Database["measurements"] }, "m">;

/** The WHERE of a selection over `measurements as m`. */
export function selectionWhere(eb: MEb, organizationId: number, selection: Selection): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb("m.organization_id", "=", organizationId), eb("m.deleted_at", "is", null)];
  if (selection.measurement_ids) {
    parts.push(selection.measurement_ids.length ? eb("m.id", "in", selection.measurement_ids) : sql<SqlBool>`false`);
  }
  if (selection.storage_id !== undefined) parts.push(eb("m.storage_id", "=", selection.storage_id));
  const f = selection.filters;
  if (f) {
    if (f.storage_ids) parts.push(eb("m.storage_id", "in", f.storage_ids));
    if (f.measurement_ids) parts.push(eb("m.id", "in", f.measurement_ids));
    if (f.measurement_type_ids) parts.push(eb("m.measurement_type_id", "in", f.measurement_type_ids));
    if (f.wood_type_ids) parts.push(eb("m.wood_type_id", "in", f.wood_type_ids));
    if (f.wood_characteristic_ids) parts.push(eb("m.assortment_id", "in", f.wood_characteristic_ids));
    if (f.taken_at_start) parts.push(eb("m.taken_at", ">=", startOf(f.taken_at_start)));
    if (f.taken_at_end) parts.push(eb("m.taken_at", "<=", endOf(f.taken_at_end)));
    if (f.measured_at_start) parts.push(eb("m.measured_at", ">=", startOf(f.measured_at_start)));
    if (f.measured_at_end) parts.push(eb("m.measured_at", "<=", endOf(f.measured_at_end)));
    if (f.created_at_start) parts.push(eb("m.created_at", ">=", startOf(f.created_at_start)));
    if (f.created_at_end) parts.push(eb("m.created_at", "<=", endOf(f.created_at_end)));
  }
  return eb.and(parts);
}

/** Ids of the selected measurements (the organisation's, not deleted), in id order. */
export async function selectedMeasurementIds(db: DB, organizationId: number, selection: Selection, limit = 100_000) {
  const rows = await db
    .selectFrom("measurements as m")
    .select("m.id")
    .where((eb) => selectionWhere(eb, organizationId, selection))
    .orderBy("m.id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function countSelected(db: DB, organizationId: number, selection: Selection) {
  const row = await db
    .selectFrom("measurements as m")
    .select((eb) => [eb.fn.countAll<number>().as("measurements"), eb.fn.sum<number>("m.logs_count").as("logs")])
    .where((eb) => selectionWhere(eb, organizationId, selection))
    .executeTakeFirstOrThrow();
  return { measurements: Number(row.measurements), logs: Number(row.logs ?? 0) };
}

export async function storageBelongs(db: DB, organizationId: number, storageId: number) {
  const row = await db
    .selectFrom("storages")
    .select("id")
    .where("id", "=", storageId)
    .where("organization_id", "=", organizationId)
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
export async function* streamLogRows(db: DB, organizationId: number, selection: Selection, opts: { pixels?: boolean } = {}): AsyncGenerator<LogRow> {
  const [assortments, culls] = await Promise.all([
    db.selectFrom("assortments").select(["id", "name"]).where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", organizationId)])).execute(),
    db.selectFrom("culls").select(["id", "reason"]).where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", organizationId)])).execute(),
  ]);
  const assortmentName = new Map(assortments.map((a) => [a.id, a.name]));
  const cullReason = new Map(culls.map((c) => [c.id, c.reason]));
  const measurements = db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .select(["m.id", "s.name as storage_name", "m.taken_at", "m.log_length", "m.volume_formula", "m.coefficient", "m.logs_count"])
    .where((eb) => selectionWhere(eb, organizationId, selection))
    .orderBy("m.id")
    .stream(500);
  const base = ["id", "measurement_id", "d", "v", "assortment_id", "cull_id"] as const;
  type M = { id: number; storage_name: string; taken_at: Date; log_length: number | null; volume_formula: string; coefficient: number | null };

  async function* batchLogs(batch: Map<number, M>): AsyncGenerator<LogRow> {
    const logs = db
      .selectFrom("logs")
      .select(opts.pixels ? [...base, "x", "y", "r"] : [...base])
      .where("organization_id", "=", organizationId)
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

/** The dashboard's measurement rows with their lookups, streamed. */
export function streamDashboardRows(db: DB, organizationId: number, selection: Selection) {
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
    ])
    .where((eb) => selectionWhere(eb, organizationId, selection))
    .orderBy("s.name")
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .stream(1000);
}

/** Totals per storage and volume formula of the selection (the dashboard's storage rows). */
export async function storageTotals(db: DB, organizationId: number, selection: Selection) {
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
    .where((eb) => selectionWhere(eb, organizationId, selection))
    .groupBy(["s.id", "s.name", "s.storage_state_id", "m.volume_formula"])
    .orderBy("s.name")
    .execute();
}

/** Everything the measurement PDF shows, for the organisation's measurements among `ids`. */
export async function loadMeasurementsForPrint(db: DB, organizationId: number, ids: number[]) {
  if (!ids.length) return [];
  const measurements = await db
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
      "wq.name as wood_quality_name",
      "a.name as assortment_name",
      "m.log_length",
      "m.logs_count",
      "m.volume",
      "m.volume_formula",
      "m.coefficient",
      "m.comment",
      "m.latitude",
      "m.longitude",
      "m.photo_key",
      "m.photo_popup_key",
      "m.photo_optimized_key",
      "m.photo_width",
      "m.photo_height",
    ])
    .where("m.organization_id", "=", organizationId)
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
      .where("organization_id", "=", organizationId)
      .where("measurement_id", "in", found)
      .where("is_deleted", "=", false)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("measurement_references")
      .select(["measurement_id", "x1", "y1", "x2", "y2", "size"])
      .where("organization_id", "=", organizationId)
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
export async function measurementPresence(db: DB, organizationId: number, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom("measurements")
    .select(["id", "photo_key"])
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
}
