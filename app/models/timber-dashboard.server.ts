import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { Database } from "#db/schema";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import type { DashboardFilter } from "~/utils/schemas/timber";
import { photoUrl } from "./measurement-photo.server";
import { publicTokensOf } from "./public-link.server";

// Reads of the timber dashboard: storages with their filtered log count and volume, one
// storage's measurements page by page, map markers, the deleted list. The aggregate reads only
// the measurements_dashboard_idx covering index when the filter is dates and storages.

type Ctx = Pick<AuthContext, "organizationId">;
type MQuery<O> = SelectQueryBuilder<Database & { m: Database["measurements"] }, "m", O>;

type MEb = ExpressionBuilder<Database & { m: Database["measurements"] }, "m">;

/**
 * The dashboard filter as one WHERE expression on the measurements alias "m": the dashboard,
 * its map and the dashboard Excel export all select with it.
 */
export function measurementFilterWhere(
  eb: MEb,
  f: DashboardFilter,
  customFieldKeys: ReadonlySet<string>,
): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.storage_ids?.length) parts.push(eb("m.storage_id", "in", f.storage_ids));
  if (f.measurement_type_ids?.length) parts.push(eb("m.measurement_type_id", "in", f.measurement_type_ids));
  if (f.wood_type_ids?.length) parts.push(eb("m.wood_type_id", "in", f.wood_type_ids));
  if (f.wood_quality_ids?.length) parts.push(eb("m.wood_quality_id", "in", f.wood_quality_ids));
  if (f.wood_characteristic_ids?.length) parts.push(eb("m.assortment_id", "in", f.wood_characteristic_ids));
  if (f.device_ids?.length) parts.push(eb("m.device_id", "in", f.device_ids));
  if (f.measurement_ids?.length) parts.push(eb("m.id", "in", f.measurement_ids));
  if (f.volume_range_start !== undefined) parts.push(eb("m.volume", ">=", f.volume_range_start));
  if (f.volume_range_end !== undefined) parts.push(eb("m.volume", "<=", f.volume_range_end));
  if (f.length_range_start !== undefined) parts.push(eb("m.log_length", ">=", f.length_range_start));
  if (f.length_range_end !== undefined) parts.push(eb("m.log_length", "<=", f.length_range_end));
  if (f.taken_at_start) parts.push(eb("m.taken_at", ">=", f.taken_at_start));
  if (f.taken_at_end) parts.push(eb("m.taken_at", "<=", f.taken_at_end));
  if (f.measured_at_start) parts.push(eb("m.measured_at", ">=", f.measured_at_start));
  if (f.measured_at_end) parts.push(eb("m.measured_at", "<=", f.measured_at_end));
  if (f.created_at_start) parts.push(eb("m.created_at", ">=", f.created_at_start));
  if (f.created_at_end) parts.push(eb("m.created_at", "<=", f.created_at_end));
  if (f.shipment_number) parts.push(eb("m.shipment_number", "=", f.shipment_number));
  for (const [key, value] of Object.entries(f.custom_fields ?? {})) {
    // Only the organisation's declared keys reach SQL (and as a bound JSON path, never spliced).
    if (!customFieldKeys.has(key)) continue;
    parts.push(eb(sql<string>`JSON_UNQUOTE(JSON_EXTRACT(m.custom_fields, ${`$."${key}"`}))`, "=", value));
  }
  return eb.and(parts);
}

/** The dashboard filter applied to a query over "m". */
export function applyMeasurementFilter<O>(
  q: MQuery<O>,
  f: DashboardFilter,
  customFieldKeys: ReadonlySet<string>,
): MQuery<O> {
  return q.where((eb) => measurementFilterWhere(eb, f, customFieldKeys));
}

export async function searchableCustomFieldKeys(db: DB, ctx: Ctx) {
  const rows = await db
    .selectFrom("custom_fields")
    .select("key")
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", "measurement")
    .execute();
  return new Set(rows.map((r) => r.key));
}

export interface DashboardStorage {
  id: number;
  name: string;
  latitude: number | null;
  longitude: number | null;
  storage_state_id: number;
  storage_group_id: number | null;
  updated_at: Date;
  token: string | null;
  last_inventory_confirmed_at: Date | null;
  logs_count: number;
  volume: number;
  measurements_count: number;
  is_default: boolean;
  measurements?: number[];
}

/** GET /dashboard_filter: every storage of the organisation (within the storage filters) with its filtered totals. */
/** The organisation's default storage comes from the signed-in context (already read), not a query. */
type DashboardCtx = Ctx & { organization: { default_storage_id: number | null } };

export async function dashboardStorages(db: DB, ctx: DashboardCtx, f: DashboardFilter): Promise<DashboardStorage[]> {
  const keys =
    f.custom_fields && Object.keys(f.custom_fields).length
      ? await searchableCustomFieldKeys(db, ctx)
      : new Set<string>();
  let storagesQ = db
    .selectFrom("storages")
    .select([
      "id",
      "name",
      "latitude",
      "longitude",
      "storage_state_id",
      "storage_group_id",
      "updated_at",
      "last_inventory_confirmed_at",
    ])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null);
  if (f.storage_ids?.length) storagesQ = storagesQ.where("id", "in", f.storage_ids);
  if (f.storage_state_ids?.length) storagesQ = storagesQ.where("storage_state_id", "in", f.storage_state_ids);

  let aggQ = applyMeasurementFilter(
    db
      .selectFrom("measurements as m")
      .select((eb) => [
        "m.storage_id",
        eb.fn.countAll<number>().as("measurements_count"),
        eb.fn.sum<number>("m.logs_count").as("logs_count"),
        eb.fn.sum<number>("m.volume").as("volume"),
      ])
      .where("m.organization_id", "=", ctx.organizationId)
      .where("m.deleted_at", "is", null)
      .groupBy("m.storage_id"),
    f,
    keys,
  );
  if (f.storage_state_ids?.length) {
    aggQ = aggQ.where("m.storage_id", "in", (eb) =>
      eb
        .selectFrom("storages")
        .select("id")
        .where("organization_id", "=", ctx.organizationId)
        .where("storage_state_id", "in", f.storage_state_ids!),
    );
  }
  const [storages, totals, tokens] = await Promise.all([
    storagesQ.orderBy("name").orderBy("id").execute(),
    aggQ.execute(),
    publicTokensOf(db, ctx, "storage"),
  ]);
  const byStorage = new Map(totals.map((t) => [t.storage_id, t]));
  let ids: Map<number, number[]> | undefined;
  if (f.measurements_included === "true") {
    const rows = await applyMeasurementFilter(
      db
        .selectFrom("measurements as m")
        .select(["m.id", "m.storage_id"])
        .where("m.organization_id", "=", ctx.organizationId)
        .where("m.deleted_at", "is", null),
      f,
      keys,
    ).execute();
    ids = new Map();
    for (const r of rows) (ids.get(r.storage_id) ?? ids.set(r.storage_id, []).get(r.storage_id)!).push(r.id);
  }
  return storages.map((s) => {
    const t = byStorage.get(s.id);
    return {
      ...s,
      token: tokens.get(s.id) ?? null,
      logs_count: Number(t?.logs_count ?? 0),
      volume: Number(t?.volume ?? 0),
      measurements_count: Number(t?.measurements_count ?? 0),
      is_default: ctx.organization.default_storage_id === s.id,
      ...(ids ? { measurements: ids.get(s.id) ?? [] } : {}),
    };
  });
}

export const LIST_COLUMNS = [
  "m.id",
  "m.storage_id",
  "m.taken_at",
  "m.created_at",
  "m.measurement_type_id",
  "m.logs_count",
  "m.volume",
  "m.log_length",
  "m.volume_formula",
  "m.wood_type_id",
  "m.wood_quality_id",
  "m.assortment_id",
  "m.inventory_id",
  "m.latitude",
  "m.longitude",
  "m.type",
  "m.photo_status",
  "m.photo_thumbnail_key",
  "m.photo_key",
  "m.device_id",
  "m.shipment_number",
  "m.poor_detection",
] as const;

export function serializeListMeasurement(m: {
  id: number;
  storage_id: number;
  taken_at: Date;
  created_at: Date;
  measurement_type_id: number;
  logs_count: number;
  volume: number;
  log_length: number | null;
  volume_formula: string;
  wood_type_id: number | null;
  wood_quality_id: number | null;
  assortment_id: number | null;
  inventory_id: number | null;
  latitude: number | null;
  longitude: number | null;
  type: string;
  photo_status: number;
  photo_thumbnail_key: string | null;
  photo_key: string | null;
  device_id: number | null;
  shipment_number: string | null;
  poor_detection: boolean;
}) {
  return {
    id: m.id,
    storage_id: m.storage_id,
    taken_at: m.taken_at,
    created_at: m.created_at,
    measurement_type_id: m.measurement_type_id,
    logs_count: m.logs_count,
    volume: m.volume,
    log_length: m.log_length,
    volume_formula: m.volume_formula,
    wood_type_id: m.wood_type_id,
    wood_quality_id: m.wood_quality_id,
    wood_characteristic_id: m.assortment_id,
    inventory_id: m.inventory_id,
    latitude: m.latitude,
    longitude: m.longitude,
    type: m.type,
    device_id: m.device_id,
    shipment_number: m.shipment_number,
    poor_detection: m.poor_detection,
    photo_status: m.photo_status,
    photo_thumbnail: m.photo_thumbnail_key ? photoUrl("timber", m.id, "thumbnail") : null,
    has_photo: m.photo_key !== null,
  };
}

/** POST /measurements/search: one storage's (or the given ids') measurements, newest first, a page at a time. */
export async function searchMeasurements(
  db: DB,
  ctx: Ctx,
  input: { storageId?: number; measurementIds?: number[]; filter: DashboardFilter; page: number; perPage: number },
) {
  const keys =
    input.filter.custom_fields && Object.keys(input.filter.custom_fields).length
      ? await searchableCustomFieldKeys(db, ctx)
      : new Set<string>();
  let base = applyMeasurementFilter(
    db
      .selectFrom("measurements as m")
      .where("m.organization_id", "=", ctx.organizationId)
      .where("m.deleted_at", "is", null),
    input.filter,
    keys,
  );
  if (input.storageId !== undefined) base = base.where("m.storage_id", "=", input.storageId);
  if (input.measurementIds?.length) base = base.where("m.id", "in", input.measurementIds);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("c")).executeTakeFirstOrThrow(),
    base
      .select([...LIST_COLUMNS])
      .orderBy("m.taken_at", "desc")
      .orderBy("m.id", "desc")
      .limit(input.perPage)
      .offset((input.page - 1) * input.perPage)
      .execute(),
  ]);
  const total = Number(count.c);
  return {
    meta: {
      page: input.page,
      per_page: input.perPage,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / input.perPage)),
    },
    measurements: rows.map(serializeListMeasurement),
  };
}

/** GET /measurements/markers/storage/{id}: located measurements of one storage (undefined: not the caller's storage). */
export async function storageMarkers(db: DB, ctx: Ctx, storageId: number, f: DashboardFilter) {
  const storage = await db
    .selectFrom("storages")
    .select("id")
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!storage) return undefined;
  const keys =
    f.custom_fields && Object.keys(f.custom_fields).length
      ? await searchableCustomFieldKeys(db, ctx)
      : new Set<string>();
  const rows = await applyMeasurementFilter(
    db
      .selectFrom("measurements as m")
      .select(["m.id", "m.latitude", "m.longitude", "m.taken_at", "m.volume", "m.logs_count"])
      .where("m.organization_id", "=", ctx.organizationId)
      .where("m.storage_id", "=", storageId)
      .where("m.deleted_at", "is", null)
      .where("m.latitude", "is not", null)
      .where("m.longitude", "is not", null),
    f,
    keys,
  )
    .orderBy("m.taken_at", "desc")
    .limit(5000)
    .execute();
  return rows;
}

/** POST /measurements/deleted: deleted measurements grouped by storage, optionally by creation date. */
export async function deletedMeasurements(db: DB, ctx: Ctx, range: { from?: Date | null; until?: Date | null }) {
  let q = db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .select([...LIST_COLUMNS, "m.deleted_at", "s.name as storage_name"])
    .where("m.organization_id", "=", ctx.organizationId)
    .where("m.deleted_at", "is not", null);
  if (range.from) q = q.where("m.created_at", ">=", range.from);
  if (range.until) q = q.where("m.created_at", "<=", range.until);
  const rows = await q.orderBy("s.name").orderBy("m.deleted_at", "desc").limit(2000).execute();
  const groups = new Map<
    number,
    {
      id: number;
      name: string;
      logs_count: number;
      volume: number;
      measurements: Array<ReturnType<typeof serializeListMeasurement> & { deleted_at: Date | null }>;
    }
  >();
  for (const r of rows) {
    const g = groups.get(r.storage_id) ?? {
      id: r.storage_id,
      name: r.storage_name,
      logs_count: 0,
      volume: 0,
      measurements: [],
    };
    groups.set(r.storage_id, g);
    g.logs_count += r.logs_count;
    g.volume += r.volume;
    g.measurements.push({ ...serializeListMeasurement(r), deleted_at: r.deleted_at });
  }
  const storages = [...groups.values()];
  return {
    storages,
    total_volume: storages.reduce((s, g) => s + g.volume, 0),
    total_logs: storages.reduce((s, g) => s + g.logs_count, 0),
    truncated: rows.length === 2000,
  };
}

/** The previous and next measurement of the same storage by taken time (null at the ends). */
export async function neighbours(db: DB, ctx: Ctx, m: { id: number; storage_id: number; taken_at: Date }) {
  const base = () =>
    db
      .selectFrom("measurements")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("storage_id", "=", m.storage_id)
      .where("deleted_at", "is", null);
  const [newer, older] = await Promise.all([
    base()
      .where((eb) =>
        eb.or([eb("taken_at", ">", m.taken_at), eb.and([eb("taken_at", "=", m.taken_at), eb("id", ">", m.id)])]),
      )
      .orderBy("taken_at", "asc")
      .orderBy("id", "asc")
      .limit(1)
      .executeTakeFirst(),
    base()
      .where((eb) =>
        eb.or([eb("taken_at", "<", m.taken_at), eb.and([eb("taken_at", "=", m.taken_at), eb("id", "<", m.id)])]),
      )
      .orderBy("taken_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  // The dashboard lists newest first: "previous" is the newer one above, "next" the older below.
  return { previousId: newer?.id ?? null, nextId: older?.id ?? null };
}
