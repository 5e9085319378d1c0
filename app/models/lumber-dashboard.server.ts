import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "#db/schema";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import type { DashboardFilter } from "~/utils/schemas/timber";
import { photoUrl } from "./measurement-photo.server";
import { publicTokensOf } from "./public-link.server";

// Reads of the lumber dashboard: storages with their filtered plank count and volume, one
// storage's lumber measurements page by page, and the deleted ones. The filter is the timber
// dashboard's (GET /dashboard_filter's parameters) as far as a lumber measurement has the
// field: storages and their states, taken and created dates, measurement types, devices,
// lumber products, ids, volume and the organisation's lumber custom fields. The aggregate
// reads only lumber_measurements_dashboard_idx when the filter is dates, types, products and
// storages (migration 2026_11_27_0017).

type Ctx = Pick<AuthContext, "organizationId">;
type LEb = ExpressionBuilder<Database & { lm: Database["lumber_measurements"] }, "lm">;

/** The page size of a storage's expanded list (and POST /lumber_measurements/search). */
export const LUMBER_DASHBOARD_PAGE_SIZE = 5;

/** The dashboard filter as one WHERE expression on the lumber measurements alias "lm". */
export function lumberFilterWhere(
  eb: LEb,
  f: DashboardFilter,
  customFieldKeys: ReadonlySet<string>,
): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.storage_ids?.length) parts.push(eb("lm.storage_id", "in", f.storage_ids));
  if (f.measurement_type_ids?.length) parts.push(eb("lm.measurement_type_id", "in", f.measurement_type_ids));
  if (f.lumber_product_ids?.length) parts.push(eb("lm.lumber_product_id", "in", f.lumber_product_ids));
  if (f.device_ids?.length) parts.push(eb("lm.device_id", "in", f.device_ids));
  if (f.measurement_ids?.length) parts.push(eb("lm.id", "in", f.measurement_ids));
  if (f.volume_range_start !== undefined) parts.push(eb("lm.volume", ">=", f.volume_range_start));
  if (f.volume_range_end !== undefined) parts.push(eb("lm.volume", "<=", f.volume_range_end));
  if (f.taken_at_start) parts.push(eb("lm.taken_at", ">=", f.taken_at_start));
  if (f.taken_at_end) parts.push(eb("lm.taken_at", "<=", f.taken_at_end));
  if (f.created_at_start) parts.push(eb("lm.created_at", ">=", f.created_at_start));
  if (f.created_at_end) parts.push(eb("lm.created_at", "<=", f.created_at_end));
  for (const [key, value] of Object.entries(f.custom_fields ?? {})) {
    // Only the organisation's declared keys reach SQL (and as a bound JSON path, never spliced).
    if (!customFieldKeys.has(key)) continue;
    parts.push(eb(sql<string>`JSON_UNQUOTE(JSON_EXTRACT(lm.custom_fields, ${`$."${key}"`}))`, "=", value));
  }
  if (f.storage_state_ids?.length) {
    const states = f.storage_state_ids;
    parts.push(
      eb("lm.storage_id", "in", (sub) =>
        sub
          .selectFrom("storages")
          .select("storages.id")
          .where("storages.organization_id", "=", sql.ref<number>("lm.organization_id"))
          .where("storages.storage_state_id", "in", states),
      ),
    );
  }
  return eb.and(parts);
}

/** The keys of the organisation's lumber custom fields (the only ones a filter may name). */
export async function lumberCustomFieldKeys(db: DB, ctx: Ctx) {
  const rows = await db
    .selectFrom("custom_fields")
    .select("key")
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", "lumber_measurement")
    .execute();
  return new Set(rows.map((r) => r.key));
}

const keysFor = (db: DB, ctx: Ctx, f: DashboardFilter) =>
  f.custom_fields && Object.keys(f.custom_fields).length ? lumberCustomFieldKeys(db, ctx) : new Set<string>();

/** Live lumber measurements of the organisation within the filter, as a query over "lm". */
export function lumberBase(db: DB, ctx: Ctx, f: DashboardFilter, keys: ReadonlySet<string>) {
  return db
    .selectFrom("lumber_measurements as lm")
    .where("lm.organization_id", "=", ctx.organizationId)
    .where("lm.deleted_at", "is", null)
    .where((eb) => lumberFilterWhere(eb, f, keys));
}

export interface LumberDashboardStorage {
  id: number;
  name: string;
  latitude: number | null;
  longitude: number | null;
  storage_state_id: number;
  storage_group_id: number | null;
  updated_at: Date;
  token: string | null;
  planks_count: number;
  volume: number;
  measurements_count: number;
  is_default: boolean;
  measurements?: number[];
}

type DashboardCtx = Ctx & { organization: { default_storage_id: number | null } };

/**
 * GET /dashboard_filter?lumber_measurements=true: every storage of the organisation (within the
 * storage filters) with its filtered lumber totals; with measurements_included=true the ids of
 * its lumber measurements too.
 */
export async function lumberDashboardStorages(
  db: DB,
  ctx: DashboardCtx,
  f: DashboardFilter,
): Promise<LumberDashboardStorage[]> {
  const keys = await keysFor(db, ctx, f);
  let storagesQ = db
    .selectFrom("storages")
    .select(["id", "name", "latitude", "longitude", "storage_state_id", "storage_group_id", "updated_at"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null);
  if (f.storage_ids?.length) storagesQ = storagesQ.where("id", "in", f.storage_ids);
  if (f.storage_state_ids?.length) storagesQ = storagesQ.where("storage_state_id", "in", f.storage_state_ids);
  const aggQ = lumberBase(db, ctx, f, keys)
    .select((eb) => [
      "lm.storage_id",
      eb.fn.countAll<number>().as("measurements_count"),
      eb.fn.sum<number>("lm.plank_count").as("planks_count"),
      eb.fn.sum<number>("lm.volume").as("volume"),
    ])
    .groupBy("lm.storage_id");
  const [storages, totals, tokens, idRows] = await Promise.all([
    storagesQ.orderBy("name").orderBy("id").execute(),
    aggQ.execute(),
    publicTokensOf(db, ctx, "storage"),
    f.measurements_included === "true"
      ? lumberBase(db, ctx, f, keys).select(["lm.id", "lm.storage_id"]).orderBy("lm.id").execute()
      : null,
  ]);
  const byStorage = new Map(totals.map((t) => [t.storage_id, t]));
  let ids: Map<number, number[]> | undefined;
  if (idRows) {
    ids = new Map();
    for (const r of idRows) (ids.get(r.storage_id) ?? ids.set(r.storage_id, []).get(r.storage_id)!).push(r.id);
  }
  return storages.map((s) => {
    const t = byStorage.get(s.id);
    return {
      ...s,
      token: tokens.get(s.id) ?? null,
      planks_count: Number(t?.planks_count ?? 0),
      volume: Number(t?.volume ?? 0),
      measurements_count: Number(t?.measurements_count ?? 0),
      is_default: ctx.organization.default_storage_id === s.id,
      ...(ids ? { measurements: ids.get(s.id) ?? [] } : {}),
    };
  });
}

const LIST_COLUMNS = [
  "lm.id",
  "lm.storage_id",
  "lm.lumber_product_id",
  "p.name as lumber_product_name",
  "p.plank_length",
  "lm.plank_count",
  "lm.volume",
  "lm.measurement_type_id",
  "lm.taken_at",
  "lm.inventory_id",
  "lm.photo_key",
  "lm.photo_status",
  "lm.photo_thumbnail_key",
] as const;

type ListRow = {
  id: number;
  storage_id: number;
  lumber_product_id: number | null;
  lumber_product_name: string | null;
  plank_length: number | null;
  plank_count: number;
  volume: number;
  measurement_type_id: number;
  taken_at: Date;
  inventory_id: number | null;
  photo_key: string | null;
  photo_status: number;
  photo_thumbnail_key: string | null;
};

/** A lumber measurement as the dashboard lists it (plank length in mm, volume in m³). */
export function serializeLumberListItem({ photo_key, photo_thumbnail_key, ...r }: ListRow) {
  return {
    ...r,
    has_photo: photo_key !== null,
    photo: photo_key ? `/files/lumber_measurements/${r.id}/photo` : null,
    photo_thumbnail: photo_thumbnail_key ? photoUrl("lumber", r.id, "thumbnail") : null,
  };
}

/** One storage's lumber measurements within the dashboard filter, newest first, a page at a time. */
export async function searchLumberDashboard(
  db: DB,
  ctx: Ctx,
  input: { storageId: number; filter: DashboardFilter; page: number; perPage?: number },
) {
  const perPage = input.perPage ?? LUMBER_DASHBOARD_PAGE_SIZE;
  const keys = await keysFor(db, ctx, input.filter);
  const base = lumberBase(db, ctx, input.filter, keys).where("lm.storage_id", "=", input.storageId);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("c")).executeTakeFirstOrThrow(),
    base
      .leftJoin("lumber_products as p", (join) =>
        join.onRef("p.id", "=", "lm.lumber_product_id").on("p.organization_id", "=", ctx.organizationId),
      )
      .select([...LIST_COLUMNS])
      .orderBy("lm.taken_at", "desc")
      .orderBy("lm.id", "desc")
      .limit(perPage)
      .offset((input.page - 1) * perPage)
      .execute(),
  ]);
  const total = Number(count.c);
  return {
    page: input.page,
    per_page: perPage,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
    measurements: rows.map(serializeLumberListItem),
  };
}

/** Deleted lumber measurements grouped by storage, optionally by creation date (the deleted page's lumber part). */
export async function deletedLumberMeasurements(db: DB, ctx: Ctx, range: { from?: Date | null; until?: Date | null }) {
  const LIMIT = 2000;
  let q = db
    .selectFrom("lumber_measurements as lm")
    .innerJoin("storages as s", "s.id", "lm.storage_id")
    .leftJoin("lumber_products as p", (join) =>
      join.onRef("p.id", "=", "lm.lumber_product_id").on("p.organization_id", "=", ctx.organizationId),
    )
    .select([...LIST_COLUMNS, "lm.deleted_at", "s.name as storage_name"])
    .where("lm.organization_id", "=", ctx.organizationId)
    .where("lm.deleted_at", "is not", null);
  if (range.from) q = q.where("lm.created_at", ">=", range.from);
  if (range.until) q = q.where("lm.created_at", "<=", range.until);
  const rows = await q.orderBy("s.name").orderBy("lm.deleted_at", "desc").limit(LIMIT).execute();
  type Item = ReturnType<typeof serializeLumberListItem> & { deleted_at: Date | null };
  const groups = new Map<
    number,
    { id: number; name: string; planks_count: number; volume: number; measurements: Item[] }
  >();
  for (const r of rows) {
    let g = groups.get(r.storage_id);
    if (!g)
      groups.set(
        r.storage_id,
        (g = { id: r.storage_id, name: r.storage_name, planks_count: 0, volume: 0, measurements: [] }),
      );
    g.planks_count += r.plank_count;
    g.volume += r.volume;
    const { deleted_at, storage_name: _name, ...item } = r;
    g.measurements.push({ ...serializeLumberListItem(item), deleted_at });
  }
  const storages = [...groups.values()];
  return {
    storages,
    total_volume: storages.reduce((s, g) => s + g.volume, 0),
    total_planks: storages.reduce((s, g) => s + g.planks_count, 0),
    truncated: rows.length === LIMIT,
  };
}

/** The lumber filter panel's choices: devices, lumber products, searchable lumber custom fields. */
export async function listLumberDashboardLookups(db: DB, ctx: Ctx) {
  const [devices, lumberProducts, customFields] = await Promise.all([
    db
      .selectFrom("devices")
      .select(["id", "name"])
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .orderBy("name")
      .execute(),
    db
      .selectFrom("lumber_products")
      .select(["id", "name"])
      .where("organization_id", "=", ctx.organizationId)
      .orderBy("name")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("custom_fields")
      .select(["id", "key", "name", "data_type"])
      .where("organization_id", "=", ctx.organizationId)
      .where("source_key", "=", "lumber_measurement")
      .where("searchable", "=", true)
      .where("archived", "=", false)
      .orderBy("id")
      .execute(),
  ]);
  const values = customFields.length
    ? await db
        .selectFrom("custom_field_values")
        .select(["custom_field_id", "value"])
        .where("organization_id", "=", ctx.organizationId)
        .where(
          "custom_field_id",
          "in",
          customFields.map((f) => f.id),
        )
        .where("archived", "=", false)
        .orderBy("rank")
        .execute()
    : [];
  return {
    devices,
    lumberProducts,
    customFields: customFields.map((f) => ({
      ...f,
      values: values.filter((v) => v.custom_field_id === f.id).map((v) => v.value),
    })),
  };
}

// ---- lumber_dashboard_excel ----

/** Per storage, the filtered lumber totals (storages without any are left out). */
export async function lumberStorageTotals(db: DB, ctx: Ctx, f: DashboardFilter, keys: ReadonlySet<string>) {
  return lumberBase(db, ctx, f, keys)
    .innerJoin("storages as s", "s.id", "lm.storage_id")
    .select((eb) => [
      "s.id",
      "s.name",
      "s.storage_state_id",
      eb.fn.countAll<number>().as("measurements_count"),
      eb.fn.sum<number>("lm.plank_count").as("planks_count"),
      eb.fn.sum<number>("lm.volume").as("volume"),
    ])
    .groupBy(["s.id", "s.name", "s.storage_state_id"])
    .orderBy("s.name")
    .orderBy("s.id")
    .execute();
}

/** How many lumber measurements the filter selects. */
export async function countLumberSelected(db: DB, ctx: Ctx, f: DashboardFilter, keys: ReadonlySet<string>) {
  const row = await lumberBase(db, ctx, f, keys)
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .executeTakeFirstOrThrow();
  return Number(row.c);
}

/** Every filtered lumber measurement with its storage and product, by storage name then newest first, streamed. */
export function streamLumberExportRows(db: DB, ctx: Ctx, f: DashboardFilter, keys: ReadonlySet<string>) {
  return lumberBase(db, ctx, f, keys)
    .innerJoin("storages as s", "s.id", "lm.storage_id")
    .leftJoin("lumber_products as p", (join) =>
      join.onRef("p.id", "=", "lm.lumber_product_id").on("p.organization_id", "=", ctx.organizationId),
    )
    .select([
      "lm.id",
      "s.name as storage_name",
      "lm.taken_at",
      "lm.measurement_type_id",
      "p.name as lumber_product_name",
      "p.plank_length",
      "lm.plank_count",
      "lm.volume",
      "lm.comment",
    ])
    .orderBy("s.name")
    .orderBy("lm.storage_id")
    .orderBy("lm.taken_at", "desc")
    .orderBy("lm.id", "desc")
    .stream(1000);
}
