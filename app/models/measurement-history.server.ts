import { createHash } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Database } from "#db/schema";
import { MEASUREMENT_KINDS, type MeasurementKind } from "~/models/measurement-kind.server";
import type { DB } from "~/utils/db.server";

// The history of every measurement of every kind (docs/decisions/024-trust.md). Each change is
// recorded in the same transaction as the change itself: a snapshot of the measurement (its row
// and, for edits, its logs / planks / loads) is taken after the row is opened, the change is
// made, and recordHistory compares the snapshot with the stored state and appends one row per
// changed measurement. A failed change rolls the history row back with it. The PATCH of one
// measurement builds both snapshots from rows it reads anyway (snapshotOne: the row it opened,
// the logs it validated against, the row it answers with), reading only what it has not.
//
// The table is append-only: this module only inserts and reads it, no route updates or deletes
// it (tests/unit/measurement-history-append-only.test.ts reads the app's code to prove it).
//
// A new measurement kind adds one line to HISTORY_SPECS (its children: the rows its volume is
// computed from); tsc fails until it does.

type Executor = DB | Transaction<Database>;
type Ctx = { organizationId: number };

/** Who made the change: a signed-in user (screens, web API) or a device (uploads). */
export type HistoryActor = { userId?: number | null; deviceId?: number | null };

export const HISTORY_ACTIONS = ["created", "edited", "moved", "deleted", "restored", "locked", "unlocked"] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

type ChildTable =
  | "logs"
  | "measurement_references"
  | "planks"
  | "truck_loads"
  | "container_measurement_logs"
  | "container_measurement_references"
  | "truck_diameter_logs";

interface ChildSpec {
  /** The key in `changes` (logs, planks, loads, references). */
  name: string;
  table: ChildTable;
  /** The column pointing at the measurement. */
  fk: string;
  /** The columns compared. */
  fields: readonly string[];
  /**
   * "rows": counted as added / removed / changed rows with their ids (a row flagged is_deleted
   * counts as removed); "value": the whole list is one field with its before and after (the
   * references, which are replaced on every save).
   */
  mode: "rows" | "value";
}

/** What each kind's volume is computed from, beside its own row. One line per kind. */
export const HISTORY_SPECS: { readonly [K in MeasurementKind]: readonly ChildSpec[] } = {
  timber: [
    {
      name: "logs",
      table: "logs",
      fk: "measurement_id",
      fields: ["x", "y", "r", "d", "v", "cull_id", "assortment_id", "is_deleted"],
      mode: "rows",
    },
    {
      name: "references",
      table: "measurement_references",
      fk: "measurement_id",
      fields: ["x1", "y1", "x2", "y2", "size"],
      mode: "value",
    },
  ],
  lumber: [
    {
      name: "planks",
      table: "planks",
      fk: "lumber_measurement_id",
      fields: ["x", "y", "width", "height", "is_deleted"],
      mode: "rows",
    },
  ],
  container: [
    {
      name: "logs",
      table: "container_measurement_logs",
      fk: "container_measurement_id",
      fields: ["x", "y", "r", "d", "v", "is_deleted"],
      mode: "rows",
    },
    {
      name: "references",
      table: "container_measurement_references",
      fk: "container_measurement_id",
      fields: ["x1", "y1", "x2", "y2", "size"],
      mode: "value",
    },
  ],
  // Its references live in the row's reference_lines column, so they show as a field change.
  truck_diameter: [
    {
      name: "logs",
      table: "truck_diameter_logs",
      fk: "truck_diameter_measurement_id",
      fields: ["x", "y", "r", "d", "v", "is_deleted"],
      mode: "rows",
    },
  ],
  truck: [
    {
      name: "loads",
      table: "truck_loads",
      fk: "truck_measurement_id",
      fields: [
        "height",
        "load_width",
        "log_length",
        "coefficient",
        "wood_type_id",
        "wood_quality_id",
        "assortment_id",
        "load_bed_name",
        "volume",
      ],
      mode: "rows",
    },
  ],
};

/** Columns that are bookkeeping, not the measurement: never reported as changes. */
const IGNORED_COLUMNS = new Set(["id", "organization_id", "created_at", "updated_at", "client_id"]);
const isIgnored = (column: string) => IGNORED_COLUMNS.has(column) || column.startsWith("photo_");

type Row = Record<string, unknown>;
export type Snapshot = { row: Row; children: Record<string, Row[]> | null };

/**
 * The state of measurements of a kind, to compare after the change. `children: false` for the
 * changes that touch only the measurement's own row (move, delete, restore, lock), so a bulk
 * change of many measurements does not read their logs.
 */
export async function snapshotMeasurements(
  trx: Executor,
  ctx: Ctx,
  kind: MeasurementKind,
  ids: number[],
  opts: { children?: boolean } = {},
): Promise<Map<number, Snapshot>> {
  const result = new Map<number, Snapshot>();
  if (!ids.length) return result;
  const unique = [...new Set(ids)];
  const rows = (await trx
    .selectFrom(MEASUREMENT_KINDS[kind].table)
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("id", "in", unique)
    .execute()) as Row[];
  for (const row of rows) result.set(Number(row.id), { row, children: opts.children === false ? null : {} });
  if (opts.children === false) return result;
  for (const spec of HISTORY_SPECS[kind]) {
    const children = await readChildren(trx, ctx, spec, unique);
    for (const snap of result.values()) snap.children![spec.name] = [];
    for (const child of children) result.get(Number(child[spec.fk]))?.children![spec.name].push(child);
  }
  return result;
}

async function readChildren(trx: Executor, ctx: Ctx, spec: ChildSpec, ids: number[]) {
  return (
    await sql<Row>`SELECT * FROM ${sql.table(spec.table)} WHERE organization_id = ${ctx.organizationId}
      AND ${sql.ref(spec.fk)} IN (${sql.join(ids)}) ORDER BY id`.execute(trx)
  ).rows;
}

/**
 * The snapshot of one measurement from rows its change has already read in its transaction, so
 * an edit does not read its row and logs twice: `row` as `selectAll()` of the kind's table gives
 * it (the row opened for the edit, or the one read back after it), each child list (by its
 * HISTORY_SPECS name) the kind's rows of the measurement with at least `id` and the compared
 * fields, read at the state the snapshot stands for. Rows with ids are put in id order, as
 * snapshotMeasurements reads them. What is not given is read as snapshotMeasurements would
 * (`children: false`: the row alone); the result is then the same, value for value.
 */
export async function snapshotOne(
  trx: Executor,
  ctx: Ctx,
  kind: MeasurementKind,
  id: number,
  known: { row?: object; children: false | Partial<Record<string, readonly object[]>> },
): Promise<Map<number, Snapshot>> {
  const result = new Map<number, Snapshot>();
  const row =
    (known.row as Row | undefined) ??
    (await snapshotMeasurements(trx, ctx, kind, [id], { children: false })).get(id)?.row;
  if (!row) return result;
  let children: Record<string, Row[]> | null = null;
  if (known.children !== false) {
    children = {};
    for (const spec of HISTORY_SPECS[kind]) {
      const given = known.children[spec.name] as Row[] | undefined;
      children[spec.name] = given ? inIdOrder(given) : await readChildren(trx, ctx, spec, [id]);
    }
  }
  result.set(id, { row, children });
  return result;
}

function inIdOrder(rows: Row[]) {
  if (!rows.every((r) => r.id !== undefined && r.id !== null)) return [...rows];
  return [...rows].sort((a, b) => Number(a.id) - Number(b.id));
}

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" && /^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (typeof value === "bigint") return Number(value);
  return value ?? null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

export type FieldChange = { before: unknown; after: unknown };
export type RowsChange = {
  added: number;
  removed: number;
  changed: number;
  added_ids: number[];
  removed_ids: number[];
  changed_ids: number[];
};
export type HistoryChanges = { fields: Record<string, FieldChange> } & Record<string, unknown>;

/** The field-level difference of two snapshots of one measurement. */
export function diffSnapshots(kind: MeasurementKind, before: Snapshot | undefined, after: Snapshot | undefined) {
  const changes: HistoryChanges = { fields: {} };
  const b = before?.row ?? {};
  const a = after?.row ?? {};
  for (const column of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (isIgnored(column) || same(b[column], a[column])) continue;
    changes.fields[column] = { before: plain(b[column]), after: plain(a[column]) };
  }
  let any = Object.keys(changes.fields).length > 0;
  if (before?.children && after?.children) {
    for (const spec of HISTORY_SPECS[kind]) {
      const pick = (r: Row) => Object.fromEntries(spec.fields.map((f) => [f, plain(r[f])]));
      const was = before.children[spec.name] ?? [];
      const now = after.children[spec.name] ?? [];
      if (spec.mode === "value") {
        const x = was.map(pick);
        const y = now.map(pick);
        if (!same(JSON.stringify(x), JSON.stringify(y))) {
          changes.fields[spec.name] = { before: x, after: y };
          any = true;
        }
        continue;
      }
      const live = (r: Row) => !r.is_deleted;
      const old = new Map(was.map((r) => [Number(r.id), r]));
      const cur = new Map(now.map((r) => [Number(r.id), r]));
      const rows: RowsChange = { added: 0, removed: 0, changed: 0, added_ids: [], removed_ids: [], changed_ids: [] };
      for (const [id, r] of cur) {
        const o = old.get(id);
        if (live(r) && (!o || !live(o))) rows.added_ids.push(id);
        else if (!live(r) && o && live(o)) rows.removed_ids.push(id);
        else if (o && live(r) && spec.fields.some((f) => !same(o[f], r[f]))) rows.changed_ids.push(id);
      }
      for (const [id, o] of old) if (!cur.has(id) && live(o)) rows.removed_ids.push(id);
      rows.added = rows.added_ids.length;
      rows.removed = rows.removed_ids.length;
      rows.changed = rows.changed_ids.length;
      if (rows.added || rows.removed || rows.changed) {
        changes[spec.name] = rows;
        any = true;
      }
    }
  }
  return any ? changes : null;
}

/**
 * Appends one history row per measurement of `before` whose state differs now (always one for
 * `created`, `deleted`, `restored`, `locked`: their row changed by definition). Call it in the
 * change's transaction, after the change.
 */
export async function recordHistory(
  trx: Transaction<Database>,
  ctx: Ctx,
  actor: HistoryActor,
  kind: MeasurementKind,
  action: HistoryAction,
  before: Map<number, Snapshot>,
  ids: number[] = [...before.keys()],
  /** The state after the change, when the change has it already (snapshotOne); else it is read. */
  known?: Map<number, Snapshot>,
) {
  if (!ids.length) return 0;
  const withChildren = [...before.values()].some((s) => s.children !== null);
  const after = known ?? (await snapshotMeasurements(trx, ctx, kind, ids, { children: withChildren }));
  const at = new Date();
  const rows: HistoryInsert[] = [];
  for (const id of new Set(ids)) {
    const was = before.get(id);
    const now = after.get(id);
    if (!now) continue;
    const changes = was ? diffSnapshots(kind, was, now) : { fields: {}, created: true };
    if (!changes) continue;
    rows.push({
      organization_id: ctx.organizationId,
      kind,
      measurement_id: id,
      action,
      user_id: actor.userId ?? null,
      device_id: actor.deviceId ?? null,
      volume_before: was ? volumeOf(was.row) : null,
      volume_after: volumeOf(now.row),
      at,
      changes: JSON.stringify(changes),
      prev_hash: null,
      hash: null,
    });
  }
  if (!rows.length) return 0;
  // The chain: each row hashes its content with the previous row's hash of the same measurement.
  const last = await lastHashes(trx, ctx, kind, [...new Set(rows.map((r) => r.measurement_id))]);
  for (const r of rows) {
    r.prev_hash = last.get(r.measurement_id) ?? null;
    r.hash = historyHash(r.prev_hash, r);
    last.set(r.measurement_id, r.hash);
  }
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto("measurement_history")
      .values(rows.slice(i, i + 500))
      .execute();
  return rows.length;
}

type HistoryInsert = {
  organization_id: number;
  kind: string;
  measurement_id: number;
  action: string;
  user_id: number | null;
  device_id: number | null;
  volume_before: number | null;
  volume_after: number | null;
  at: Date;
  changes: string;
  prev_hash: string | null;
  hash: string | null;
};

type HashedContent = {
  organization_id: number;
  kind: string;
  measurement_id: number;
  action: string;
  at: Date | string;
  volume_before: number | null;
  volume_after: number | null;
  changes: unknown;
};

/**
 * A history row's hash: SHA-256 of the previous row's hash (of the same measurement) and the
 * row's content (organisation, kind, measurement, action, time, volumes and the changes as
 * stored). Who made the change is not in it: the database sets user_id / device_id to null when
 * a user or device is deleted, which must not break the chain. Migration 0029 holds a copy of
 * this rule for the rows written before it; the two must never differ.
 */
export function historyHash(prev: string | null, r: HashedContent) {
  const changes = typeof r.changes === "string" ? r.changes : JSON.stringify(r.changes);
  return createHash("sha256")
    .update(
      [
        prev ?? "",
        r.organization_id,
        r.kind,
        r.measurement_id,
        r.action,
        new Date(r.at).toISOString(),
        r.volume_before ?? "",
        r.volume_after ?? "",
        changes,
      ].join("\n"),
    )
    .digest("hex");
}

/**
 * The newest hash of each measurement's history, read with a lock (the latest committed rows,
 * whatever the transaction's snapshot): two changes of one measurement never fork its chain.
 */
async function lastHashes(trx: Transaction<Database>, ctx: Ctx, kind: MeasurementKind, ids: number[]) {
  const result = new Map<number, string | null>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = (
      await sql<{ measurement_id: number; hash: string | null }>`SELECT h.measurement_id, h.hash
        FROM measurement_history h JOIN (SELECT MAX(id) AS id FROM measurement_history
          WHERE organization_id = ${ctx.organizationId} AND kind = ${kind}
          AND measurement_id IN (${sql.join(chunk)}) GROUP BY measurement_id) newest ON newest.id = h.id
        FOR UPDATE`.execute(trx)
    ).rows;
    for (const r of rows) result.set(Number(r.measurement_id), r.hash);
  }
  return result;
}

export type ChainVerification = {
  ok: boolean;
  /** Rows checked. */
  entries: number;
  /** The first row whose hash does not match its content or its predecessor, if any. */
  broken_at: number | null;
};

/**
 * Recomputes a measurement's chain from its first row (oldest first): each row's prev_hash must be
 * the previous row's hash, and its hash that of its content. Any edit, removal or insertion of a
 * row outside recordHistory shows as the first row where that fails.
 */
export async function verifyHistoryChain(
  db: Executor,
  ctx: Ctx,
  kind: MeasurementKind,
  id: number,
): Promise<ChainVerification> {
  const rows = await db
    .selectFrom("measurement_history")
    .select([
      "id",
      "organization_id",
      "kind",
      "measurement_id",
      "action",
      "at",
      "volume_before",
      "volume_after",
      "changes",
      "prev_hash",
      "hash",
    ])
    .where("organization_id", "=", ctx.organizationId)
    .where("kind", "=", kind)
    .where("measurement_id", "=", id)
    .orderBy("id")
    .execute();
  return checkChain(rows);
}

/** The chain rule over rows of one measurement, oldest first (exported for the benchmark). */
export function checkChain(
  rows: Array<HashedContent & { id: number; prev_hash: string | null; hash: string | null }>,
): ChainVerification {
  let prev: string | null = null;
  for (const r of rows) {
    if (r.prev_hash !== prev || r.hash !== historyHash(prev, r))
      return { ok: false, entries: rows.length, broken_at: r.id };
    prev = r.hash;
  }
  return { ok: true, entries: rows.length, broken_at: null };
}

function volumeOf(row: Row) {
  const v = row.volume;
  return typeof v === "number" ? v : v === null || v === undefined ? null : Number(v);
}

/** One change, in one call: snapshot, change, record. The change's result is returned. */
export async function withHistory<T>(
  trx: Transaction<Database>,
  ctx: Ctx,
  actor: HistoryActor,
  kind: MeasurementKind,
  action: HistoryAction,
  ids: number[],
  opts: { children?: boolean },
  change: () => Promise<T>,
): Promise<T> {
  const before = await snapshotMeasurements(trx, ctx, kind, ids, opts);
  const result = await change();
  await recordHistory(trx, ctx, actor, kind, action, before, ids);
  return result;
}

/** A measurement's creation (the device upload envelope and the staff photo upload). */
export async function recordCreated(
  trx: Transaction<Database>,
  ctx: Ctx,
  actor: HistoryActor,
  kind: MeasurementKind,
  id: number,
) {
  await recordHistory(trx, ctx, actor, kind, "created", new Map(), [id]);
}

export const actorOf = (ctx: { organizationId: number; userId?: number }): HistoryActor => ({
  userId: ctx.userId ?? null,
});

export type HistoryEntry = {
  id: number;
  action: HistoryAction;
  at: Date;
  user_id: number | null;
  user_name: string | null;
  device_id: number | null;
  device_name: string | null;
  volume_before: number | null;
  volume_after: number | null;
  /** volume_after - volume_before, m³ (null for the creation). */
  volume_change: number | null;
  changes: HistoryChanges;
  /** This row's link of the chain (null only if written before the chain existed and not migrated). */
  hash: string | null;
};

/** A measurement's history, newest first (the caller has checked the measurement is the organisation's). */
export async function listHistory(db: Executor, ctx: Ctx, kind: MeasurementKind, id: number): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom("measurement_history as h")
    .leftJoin("users as u", "u.id", "h.user_id")
    .leftJoin("devices as d", "d.id", "h.device_id")
    .select([
      "h.id",
      "h.action",
      "h.at",
      "h.user_id",
      "u.name as user_name",
      "u.email as user_email",
      "h.device_id",
      "d.name as device_name",
      "h.volume_before",
      "h.volume_after",
      "h.changes",
      "h.hash",
    ])
    .where("h.organization_id", "=", ctx.organizationId)
    .where("h.kind", "=", kind)
    .where("h.measurement_id", "=", id)
    .orderBy("h.id", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action as HistoryAction,
    at: r.at,
    user_id: r.user_id,
    user_name: r.user_name ?? r.user_email ?? null,
    device_id: r.device_id,
    device_name: r.device_name,
    volume_before: r.volume_before,
    volume_after: r.volume_after,
    volume_change: r.volume_before === null || r.volume_after === null ? null : r.volume_after - r.volume_before,
    changes: (typeof r.changes === "string" ? JSON.parse(r.changes) : r.changes) as HistoryChanges,
    hash: r.hash,
  }));
}
