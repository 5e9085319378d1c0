import { escapeLike, getTruckLoads, getTruckMeasurementRow } from "~/models/truck.server";
import type { DB } from "~/utils/db.server";
import type { TruckDashboardFilter } from "~/utils/schemas/truck";

// The rows of the truck report types (docs/decisions/017-trucks.md, "Exports"): the truck
// dashboard's measurements under its filters (plate, the two "only" checkboxes), their loads
// for the per-load delivery sheet, and one measurement for its PDF. Every query is scoped by the
// organisation and skips deleted measurements. Volumes are the stored ones (app/domain/truck.ts).

type Org = { organizationId: number };

/** The dashboard's filters as a condition on `truck_measurements as tm`. */
function filtered(db: DB, ctx: Org, f: TruckDashboardFilter) {
  let q = db
    .selectFrom("truck_measurements as tm")
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null);
  if (f.license_plate)
    q = q.where("tm.truck_id", "in", (eb) =>
      eb
        .selectFrom("trucks")
        .select("id")
        .where("organization_id", "=", ctx.organizationId)
        .where("license_plate", "like", `%${escapeLike(f.license_plate!)}%`),
    );
  // Truck-diameter measurements are another kind: "only truck-diameter" selects no truck measurement.
  if (f.truck_diameter_measurements_only) q = q.where(({ lit }) => lit(false));
  return q;
}

/** The dashboard's filters as a condition on `truck_diameter_measurements as d` (the trailer's plate). */
function filteredDiameter(db: DB, ctx: Org, f: TruckDashboardFilter) {
  let q = db
    .selectFrom("truck_diameter_measurements as d")
    .where("d.organization_id", "=", ctx.organizationId)
    .where("d.deleted_at", "is", null);
  if (f.license_plate) q = q.where("d.trailer_license_plate", "like", `%${escapeLike(f.license_plate)}%`);
  // "only truck" selects no truck-diameter measurement.
  if (f.truck_measurements_only) q = q.where(({ lit }) => lit(false));
  return q;
}

/** How many truck-diameter measurements the filters select. */
export async function countTruckDiameterSelected(db: DB, ctx: Org, f: TruckDashboardFilter) {
  const row = await filteredDiameter(db, ctx, f)
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .executeTakeFirstOrThrow();
  return Number(row.c);
}

/** Every filtered truck-diameter measurement with its storage, shipment and species, by storage then newest first, streamed. */
export function streamTruckDiameterExportRows(db: DB, ctx: Org, f: TruckDashboardFilter) {
  return filteredDiameter(db, ctx, f)
    .innerJoin("storages as s", "s.id", "d.storage_id")
    .leftJoin("shipments as sh", (j) =>
      j.onRef("sh.id", "=", "d.shipment_id").on("sh.organization_id", "=", ctx.organizationId),
    )
    .leftJoin("wood_types as wt", "wt.id", "d.wood_type_id")
    .select([
      "d.id",
      "s.name as storage_name",
      "d.trailer_license_plate",
      "sh.number as shipment_number",
      "d.taken_at",
      "d.measured_at",
      "d.measurement_type_id",
      "d.wood_type_id",
      "wt.name as wood_type_name",
      "wt.organization_id as wood_type_org",
      "d.log_length",
      "d.logs_count",
      "d.volume_formula",
      "d.volume",
      "d.load_bed_name",
      "d.detector",
    ])
    .orderBy("s.name")
    .orderBy("d.storage_id")
    .orderBy("d.taken_at", "desc")
    .orderBy("d.id", "desc")
    .stream(1000);
}

/** How many truck measurements the filters select. */
export async function countTruckSelected(db: DB, ctx: Org, f: TruckDashboardFilter) {
  const row = await filtered(db, ctx, f)
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .executeTakeFirstOrThrow();
  return Number(row.c);
}

/** How many loads the filtered truck measurements have (the per-load sheet's rows). */
export async function countTruckLoadsSelected(db: DB, ctx: Org, f: TruckDashboardFilter) {
  const row = await filtered(db, ctx, f)
    .select((eb) => eb.fn.sum<number>("tm.load_count").as("c"))
    .executeTakeFirstOrThrow();
  return Number(row.c ?? 0);
}

/** Every filtered truck measurement with its storage and plate, by storage name then newest first, streamed. */
export function streamTruckExportRows(db: DB, ctx: Org, f: TruckDashboardFilter) {
  return filtered(db, ctx, f)
    .innerJoin("storages as s", "s.id", "tm.storage_id")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .select([
      "tm.id",
      "s.name as storage_name",
      "t.license_plate",
      "tm.shipment_number",
      "tm.taken_at",
      "tm.measured_at",
      "tm.measurement_type_id",
      "tm.load_count",
      "tm.stacked_volume",
      "tm.volume",
      "tm.weight",
      "tm.weight_density",
    ])
    .orderBy("s.name")
    .orderBy("tm.storage_id")
    .orderBy("tm.taken_at", "desc")
    .orderBy("tm.id", "desc")
    .stream(1000);
}

/**
 * Every load of the filtered truck measurements with its measurement's delivery fields and the
 * load's species, quality and assortment, in delivery order (taken, measurement, bed), streamed.
 */
export function streamTruckLoadRows(db: DB, ctx: Org, f: TruckDashboardFilter) {
  return filtered(db, ctx, f)
    .innerJoin("truck_loads as l", (j) =>
      j.onRef("l.truck_measurement_id", "=", "tm.id").on("l.organization_id", "=", ctx.organizationId),
    )
    .innerJoin("storages as s", "s.id", "tm.storage_id")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .leftJoin("wood_types as wt", "wt.id", "l.wood_type_id")
    .leftJoin("wood_qualities as wq", "wq.id", "l.wood_quality_id")
    .leftJoin("assortments as a", "a.id", "l.assortment_id")
    .select([
      "tm.id as measurement_id",
      "tm.taken_at",
      "t.license_plate",
      "tm.shipment_number",
      "s.name as storage_name",
      "l.load_index",
      "l.load_bed_name",
      "l.height",
      "l.load_width",
      "l.log_length",
      "l.coefficient",
      "l.stacked_volume",
      "l.volume",
      "l.wood_type_id",
      "wt.name as wood_type_name",
      "wt.organization_id as wood_type_org",
      "l.wood_quality_id",
      "wq.name as wood_quality_name",
      "wq.organization_id as wood_quality_org",
      "a.name as assortment_name",
    ])
    .orderBy("tm.taken_at")
    .orderBy("tm.id")
    .orderBy("l.load_index")
    .orderBy("l.id")
    .stream(1000);
}

/** One truck measurement for its PDF: the row with plate, storage name and loads; null when gone. */
export async function loadTruckMeasurementForPrint(db: DB, ctx: Org, id: number) {
  const m = await getTruckMeasurementRow(db, ctx, id);
  if (!m) return null;
  const [loads, storage] = await Promise.all([
    getTruckLoads(db, ctx, id),
    db
      .selectFrom("storages")
      .select("name")
      .where("id", "=", m.storage_id)
      .where("organization_id", "=", ctx.organizationId)
      .executeTakeFirst(),
  ]);
  return { ...m, storage_name: storage?.name ?? null, loads };
}

/** Which of the ids are live truck measurements of the organisation, with their photo key. */
export async function truckMeasurementPresence(db: DB, ctx: Org, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom("truck_measurements")
    .select(["id", "photo_key"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", ids)
    .execute();
}

/**
 * Deleted truck measurements grouped by storage, optionally by creation date (the deleted page's
 * truck part, beside timber and lumber): plate, loads and solid volume of each.
 */
export async function deletedTruckMeasurements(db: DB, ctx: Org, range: { from?: Date | null; until?: Date | null }) {
  const LIMIT = 2000;
  let q = db
    .selectFrom("truck_measurements as tm")
    .innerJoin("storages as s", "s.id", "tm.storage_id")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .select([
      "tm.id",
      "tm.storage_id",
      "s.name as storage_name",
      "t.license_plate",
      "tm.taken_at",
      "tm.deleted_at",
      "tm.load_count",
      "tm.volume",
    ])
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is not", null);
  if (range.from) q = q.where("tm.created_at", ">=", range.from);
  if (range.until) q = q.where("tm.created_at", "<=", range.until);
  const rows = await q
    .orderBy("s.name")
    .orderBy("tm.storage_id")
    .orderBy("tm.deleted_at", "desc")
    .limit(LIMIT)
    .execute();
  type Item = Omit<(typeof rows)[number], "storage_name" | "storage_id">;
  const groups = new Map<
    number,
    { id: number; name: string; load_count: number; volume: number; measurements: Item[] }
  >();
  for (const { storage_id, storage_name, ...item } of rows) {
    let g = groups.get(storage_id);
    if (!g)
      groups.set(storage_id, (g = { id: storage_id, name: storage_name, load_count: 0, volume: 0, measurements: [] }));
    g.load_count += item.load_count;
    g.volume += item.volume;
    g.measurements.push(item);
  }
  const storages = [...groups.values()];
  return {
    storages,
    total_volume: storages.reduce((s, g) => s + g.volume, 0),
    total_loads: storages.reduce((s, g) => s + g.load_count, 0),
    truncated: rows.length === LIMIT,
  };
}

/**
 * Deleted truck-diameter measurements grouped by storage, optionally by creation date (the deleted
 * page's part after the truck measurements): trailer plate, logs and volume of each.
 */
export async function deletedTruckDiameterMeasurements(
  db: DB,
  ctx: Org,
  range: { from?: Date | null; until?: Date | null },
) {
  const LIMIT = 2000;
  let q = db
    .selectFrom("truck_diameter_measurements as d")
    .innerJoin("storages as s", "s.id", "d.storage_id")
    .select([
      "d.id",
      "d.storage_id",
      "s.name as storage_name",
      "d.trailer_license_plate",
      "d.taken_at",
      "d.deleted_at",
      "d.logs_count",
      "d.volume",
    ])
    .where("d.organization_id", "=", ctx.organizationId)
    .where("d.deleted_at", "is not", null);
  if (range.from) q = q.where("d.created_at", ">=", range.from);
  if (range.until) q = q.where("d.created_at", "<=", range.until);
  const rows = await q.orderBy("s.name").orderBy("d.storage_id").orderBy("d.deleted_at", "desc").limit(LIMIT).execute();
  type Item = Omit<(typeof rows)[number], "storage_name" | "storage_id">;
  const groups = new Map<
    number,
    { id: number; name: string; logs_count: number; volume: number; measurements: Item[] }
  >();
  for (const { storage_id, storage_name, ...item } of rows) {
    let g = groups.get(storage_id);
    if (!g)
      groups.set(storage_id, (g = { id: storage_id, name: storage_name, logs_count: 0, volume: 0, measurements: [] }));
    g.logs_count += item.logs_count;
    g.volume += item.volume;
    g.measurements.push(item);
  }
  const storages = [...groups.values()];
  return {
    storages,
    total_volume: storages.reduce((s, g) => s + g.volume, 0),
    total_logs: storages.reduce((s, g) => s + g.logs_count, 0),
    truncated: rows.length === LIMIT,
  };
}
