import type { Database, TruckLoad, TruckMeasurement } from "#db/schema";
import { truckLoadVolume, truckVolume } from "~/domain/truck";
import { actorOf, recordHistory, snapshotOne } from "~/models/measurement-history.server";
import {
  checkCustomFields,
  getStorageRow,
  NotFoundError,
  openEditableRow,
  softDeleteMeasurements,
  TimberValidationError,
  type DeviceUploadPlug,
} from "~/models/measurement-kind.server";
import { photoUrl, screenPhotoUrl } from "~/models/measurement-photo.server";
import { findOrCreateShipment } from "~/models/shipment-number.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import {
  TRUCK_PAGE_SIZE,
  TruckDeviceMeasurementSchema,
  type TruckDashboardFilter,
  type TruckDeviceMeasurementInput,
  type TruckPatch,
} from "~/utils/schemas/truck";
import type { Transaction } from "kysely";

// Truck measurements (docs/decisions/017-trucks.md): the loads on a truck, each a stacked box
// (height x load width x log length) and its solid volume (x coefficient), computed only by
// app/domain/truck.ts and kept on the load and the measurement rows so lists and storages sum
// them. Every query is scoped by the organisation; another organisation's row is "not found".
// Editing rules, soft delete and errors are every measurement kind's (measurement-kind.server.ts).
// These functions are the truck model other areas build on (the cmpc shipments dashboard).

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

/** One truck measurement of the organisation (deleted ones too when asked), with its plate. */
export async function getTruckMeasurementRow(
  db: Executor,
  ctx: Ctx,
  id: number,
  opts: { includeDeleted?: boolean } = {},
) {
  let q = db
    .selectFrom("truck_measurements as tm")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .selectAll("tm")
    .select("t.license_plate")
    .where("tm.id", "=", id)
    .where("tm.organization_id", "=", ctx.organizationId);
  if (!opts.includeDeleted) q = q.where("tm.deleted_at", "is", null);
  return q.executeTakeFirst();
}
export type TruckMeasurementRow = NonNullable<Awaited<ReturnType<typeof getTruckMeasurementRow>>>;

/** The measurement's loads in bed order. */
export async function getTruckLoads(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("truck_loads")
    .selectAll()
    .where("truck_measurement_id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("load_index")
    .orderBy("id")
    .execute();
}

/** The truck with this plate in the organisation, made on first use. */
export async function findOrCreateTruck(db: Executor, ctx: Ctx, licensePlate: string) {
  const plate = licensePlate.trim();
  const found = await db
    .selectFrom("trucks")
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("license_plate", "=", plate)
    .executeTakeFirst();
  if (found) return found.id;
  await db
    .insertInto("trucks")
    .ignore()
    .values({ organization_id: ctx.organizationId, license_plate: plate })
    .execute();
  const row = await db
    .selectFrom("trucks")
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("license_plate", "=", plate)
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewTruckLoad {
  height: number;
  load_width: number;
  log_length: number;
  coefficient: number;
  wood_type_id?: number | null;
  wood_quality_id?: number | null;
  assortment_id?: number | null;
  load_bed_name?: string | null;
}

/** A load row's volumes from app/domain/truck.ts. */
function loadVolumes(l: Pick<NewTruckLoad, "height" | "load_width" | "log_length" | "coefficient">) {
  const v = truckLoadVolume({
    heightM: l.height,
    loadWidthM: l.load_width,
    logLengthM: l.log_length,
    coefficient: l.coefficient,
  });
  return { stacked_volume: v.stackedM3, volume: v.solidM3 };
}

/**
 * Recomputes the measurement's totals from its loads (app/domain/truck.ts) and stores them;
 * returns the loads read (the PATCH's history compares them).
 */
async function storeTotals(trx: Executor, ctx: Ctx, id: number) {
  const loads = await getTruckLoads(trx, ctx, id);
  const total = truckVolume(
    loads.map((l) => ({
      heightM: l.height,
      loadWidthM: l.load_width,
      logLengthM: l.log_length,
      coefficient: l.coefficient,
    })),
  );
  await trx
    .updateTable("truck_measurements")
    .set({ load_count: loads.length, stacked_volume: total.stackedM3, volume: total.solidM3, updated_at: new Date() })
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .execute();
  return loads;
}

/**
 * Creates a truck measurement with its loads (the seed, tests, and later the device upload's
 * insert): volumes computed here from the loads.
 */
export async function insertTruckMeasurement(
  trx: Executor,
  ctx: Ctx,
  input: {
    storage_id: number;
    license_plate?: string | null;
    taken_at: Date;
    measured_at?: Date | null;
    shipment_number?: string | null;
    measurement_type_id?: number;
    weight?: number | null;
    weight_density?: number | null;
    latitude?: number | null;
    longitude?: number | null;
    device_id?: number | null;
    client_id?: string | null;
    volume_formula?: string | null;
    comment?: string | null;
    /** JSON of checked values (checkCustomFields). */
    custom_fields?: string;
    loads: NewTruckLoad[];
  },
) {
  const truckId = input.license_plate ? await findOrCreateTruck(trx, ctx, input.license_plate) : null;
  // The shipment of its number, made on first use (issue 22, docs/decisions/023-shipments.md).
  const shipmentId = input.shipment_number?.trim() ? await findOrCreateShipment(trx, ctx, input.shipment_number) : null;
  const { loads, license_plate: _plate, ...fields } = input;
  const inserted = await trx
    .insertInto("truck_measurements")
    .values({ ...fields, organization_id: ctx.organizationId, truck_id: truckId, shipment_id: shipmentId })
    .executeTakeFirstOrThrow();
  const id = Number(inserted.insertId);
  if (loads.length)
    await trx
      .insertInto("truck_loads")
      .values(
        loads.map((l, i) => ({
          ...l,
          organization_id: ctx.organizationId,
          truck_measurement_id: id,
          load_index: i,
          ...loadVolumes(l),
        })),
      )
      .execute();
  await storeTotals(trx, ctx, id);
  return id;
}

async function knownLookups(
  db: Executor,
  ctx: Ctx,
  table: "wood_types" | "wood_qualities" | "assortments",
  ids: number[],
) {
  if (!ids.length) return new Set<number>();
  const rows = await db
    .selectFrom(table)
    .select("id")
    .where("id", "in", [...new Set(ids)])
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * PATCH /truck_measurements/{id}: loads with an id are changed, loads without one are added (all
 * four sides needed), loads_removed are deleted; measurement type, weight, weight density and
 * volume formula are set. Every input is checked before anything is written: any error answers
 * 422 with every field's errors and changes nothing. Then the volumes are recomputed.
 */
export async function patchTruckMeasurement(db: DB, ctx: AuthContext, id: number, patch: TruckPatch) {
  return db.transaction().execute(async (trx) => {
    const m = await openEditableRow(trx, ctx, "truck", id);
    const loads = await getTruckLoads(trx, ctx, id);
    // The history (decision 024): the state before is the row opened and the loads just read.
    const before = await snapshotOne(trx, ctx, "truck", id, { row: m, children: { loads } });
    const byId = new Map(loads.map((l) => [l.id, l]));
    const errors: Record<string, string[]> = {};
    const changes = patch.loads ?? [];
    const [woodTypes, qualities, assortments] = await Promise.all([
      knownLookups(
        trx,
        ctx,
        "wood_types",
        changes.flatMap((c) => (c.wood_type_id ? [c.wood_type_id] : [])),
      ),
      knownLookups(
        trx,
        ctx,
        "wood_qualities",
        changes.flatMap((c) => (c.wood_quality_id ? [c.wood_quality_id] : [])),
      ),
      knownLookups(
        trx,
        ctx,
        "assortments",
        changes.flatMap((c) => (c.assortment_id ? [c.assortment_id] : [])),
      ),
    ]);
    const removed = new Set(patch.loads_removed ?? []);
    (patch.loads_removed ?? []).forEach((loadId, i) => {
      if (!byId.has(loadId)) errors[`loads_removed.${i}`] = ["timber:errors.unknown"];
    });
    const updates: Array<{ id: number; row: NewTruckLoad }> = [];
    const added: NewTruckLoad[] = [];
    changes.forEach((c, i) => {
      if (c.wood_type_id && !woodTypes.has(c.wood_type_id))
        errors[`loads.${i}.wood_type_id`] = ["timber:errors.unknown"];
      if (c.wood_quality_id && !qualities.has(c.wood_quality_id))
        errors[`loads.${i}.wood_quality_id`] = ["timber:errors.unknown"];
      if (c.assortment_id && !assortments.has(c.assortment_id))
        errors[`loads.${i}.assortment_id`] = ["timber:errors.unknown"];
      const current = c.id !== undefined ? byId.get(c.id) : undefined;
      if (c.id !== undefined && !current) {
        errors[`loads.${i}.id`] = ["timber:errors.unknown"];
        return;
      }
      const row: Partial<NewTruckLoad> = {
        height: c.height ?? current?.height,
        load_width: c.load_width ?? current?.load_width,
        log_length: c.log_length ?? current?.log_length,
        coefficient: c.coefficient ?? current?.coefficient,
        wood_type_id: c.wood_type_id === undefined ? current?.wood_type_id : c.wood_type_id,
        wood_quality_id: c.wood_quality_id === undefined ? current?.wood_quality_id : c.wood_quality_id,
        assortment_id: c.assortment_id === undefined ? current?.assortment_id : c.assortment_id,
        load_bed_name: c.load_bed_name === undefined ? current?.load_bed_name : c.load_bed_name || null,
      };
      for (const side of ["height", "load_width", "log_length", "coefficient"] as const)
        if (row[side] === undefined) errors[`loads.${i}.${side}`] = ["timber:errors.required"];
      if (current) updates.push({ id: current.id, row: row as NewTruckLoad });
      else added.push(row as NewTruckLoad);
    });
    const remaining = loads.length - removed.size + added.length;
    if (remaining > 20) errors.loads = ["trucks:errors.tooManyLoads"];
    if (Object.keys(errors).length) throw new TimberValidationError(errors);

    for (const u of updates) {
      if (removed.has(u.id)) continue;
      await trx
        .updateTable("truck_loads")
        .set({ ...u.row, ...loadVolumes(u.row) })
        .where("id", "=", u.id)
        .where("organization_id", "=", ctx.organizationId)
        .execute();
    }
    if (removed.size)
      await trx
        .deleteFrom("truck_loads")
        .where("truck_measurement_id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", [...removed])
        .execute();
    const nextIndex = loads.reduce((m, l) => Math.max(m, l.load_index + 1), 0);
    if (added.length)
      await trx
        .insertInto("truck_loads")
        .values(
          added.map((l, i) => ({
            ...l,
            organization_id: ctx.organizationId,
            truck_measurement_id: id,
            load_index: nextIndex + i,
            ...loadVolumes(l),
          })),
        )
        .execute();
    const fields: Partial<
      Pick<TruckMeasurement, "measurement_type_id" | "weight" | "weight_density" | "volume_formula">
    > & { reference_lines?: string } = {};
    if (patch.measurement_type_id !== undefined) fields.measurement_type_id = patch.measurement_type_id;
    if (patch.weight !== undefined) fields.weight = patch.weight;
    if (patch.weight_density !== undefined) fields.weight_density = patch.weight_density;
    if (patch.volume_formula !== undefined) fields.volume_formula = patch.volume_formula || null;
    // The photo editor's reference lines: replaced whole, as the editor sends them all. The load
    // volumes do not depend on them (nor on the formula); the totals are recomputed all the same.
    if (patch.references !== undefined) fields.reference_lines = JSON.stringify(patch.references);
    if (Object.keys(fields).length)
      await trx
        .updateTable("truck_measurements")
        .set(fields)
        .where("id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .execute();
    const loadsAfter = await storeTotals(trx, ctx, id);
    // The state after: the loads the totals were computed from; the row is read (the answer's
    // row carries the truck's plate beside the measurement's columns).
    const after = await snapshotOne(trx, ctx, "truck", id, { children: { loads: loadsAfter } });
    await recordHistory(trx, ctx, actorOf(ctx), "truck", "edited", before, undefined, after);
    return (await getTruckMeasurementRow(trx, ctx, id))!;
  });
}

/** DELETE /truck_measurements: soft, all or nothing (measurement-kind rules). */
export function deleteTruckMeasurements(db: DB, ctx: Pick<AuthContext, "roles" | "organizationId">, ids: number[]) {
  return softDeleteMeasurements(db, ctx, "truck", ids);
}

function serializeLoad(l: TruckLoad) {
  return {
    id: l.id,
    index: l.load_index,
    height: l.height,
    load_width: l.load_width,
    log_length: l.log_length,
    coefficient: l.coefficient,
    stacked_volume: l.stacked_volume,
    volume: l.volume,
    wood_type_id: l.wood_type_id,
    wood_quality_id: l.wood_quality_id,
    wood_characteristic_id: l.assortment_id,
    assortment_id: l.assortment_id,
    truck_measurement_id: l.truck_measurement_id,
    load_bed_name: l.load_bed_name,
  };
}

/** The API's truck measurement (the spec's entity), with its loads. */
export async function serializeTruckMeasurement(db: Executor, ctx: Ctx, m: TruckMeasurementRow) {
  const loads = await getTruckLoads(db, ctx, m.id);
  return {
    id: m.id,
    storage_id: m.storage_id,
    truck: m.truck_id ? { id: m.truck_id, license_plate: m.license_plate } : null,
    shipment_number: m.shipment_number,
    measurement_type_id: m.measurement_type_id,
    weight: m.weight,
    weight_density: m.weight_density,
    volume_formula: m.volume_formula,
    volume: m.volume,
    stacked_volume: m.stacked_volume,
    load_count: m.load_count,
    taken_at: m.taken_at,
    measured_at: m.measured_at,
    latitude: m.latitude,
    longitude: m.longitude,
    photo: screenPhotoUrl("truck", m),
    photo_thumbnail: m.photo_thumbnail_key ? photoUrl("truck", m.id, "thumbnail") : null,
    custom_fields: m.custom_fields,
    inventory_id: m.inventory_id,
    device_id: m.device_id,
    created_at: m.created_at,
    updated_at: m.updated_at,
    deleted_at: m.deleted_at,
    references: m.reference_lines ?? [],
    loads: loads.map(serializeLoad),
  };
}

/**
 * POST /truck_measurements/search: a page of 5 truck measurements of a storage (or one by id),
 * newest first, with total_pages. Another organisation's storage is 404.
 */
export async function searchTruckMeasurements(
  db: DB,
  ctx: Ctx,
  input: { storageId?: number; measurementId?: number; licensePlate?: string; page: number },
) {
  if (input.storageId !== undefined && !(await getStorageRow(db, ctx, input.storageId))) throw new NotFoundError();
  let base = db
    .selectFrom("truck_measurements as tm")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null);
  if (input.storageId !== undefined) base = base.where("tm.storage_id", "=", input.storageId);
  if (input.measurementId !== undefined) base = base.where("tm.id", "=", input.measurementId);
  if (input.licensePlate) base = base.where("t.license_plate", "like", `%${escapeLike(input.licensePlate)}%`);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("c")).executeTakeFirstOrThrow(),
    base
      .select([
        "tm.id",
        "tm.storage_id",
        "tm.truck_id",
        "t.license_plate",
        "tm.shipment_number",
        "tm.measurement_type_id",
        "tm.load_count",
        "tm.stacked_volume",
        "tm.volume",
        "tm.weight",
        "tm.taken_at",
        "tm.measured_at",
        "tm.inventory_id",
        "tm.photo_thumbnail_key",
      ])
      .orderBy("tm.taken_at", "desc")
      .orderBy("tm.id", "desc")
      .limit(TRUCK_PAGE_SIZE)
      .offset((input.page - 1) * TRUCK_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(count.c);
  return {
    meta: {
      page: input.page,
      per_page: TRUCK_PAGE_SIZE,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / TRUCK_PAGE_SIZE)),
    },
    measurements: rows.map(({ photo_thumbnail_key, truck_id, license_plate, ...r }) => ({
      ...r,
      truck: truck_id ? { id: truck_id, license_plate } : null,
      photo_thumbnail: photo_thumbnail_key ? photoUrl("truck", r.id, "thumbnail") : null,
    })),
  };
}

export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface TruckDashboardStorage {
  id: number;
  name: string;
  storage_group_id: number | null;
  /** Truck plus truck-diameter measurements, as the "only" boxes select them. */
  measurements_count: number;
  truck_count: number;
  diameter_count: number;
  /** The truck measurements' loads. */
  load_count: number;
  /** The truck-diameter measurements' logs. */
  logs_count: number;
  /** Solid m³ of the truck measurements' loads. */
  volume: number;
  /**
   * Solid m³ of the truck-diameter measurements, kept apart from the loads' volume: both kinds can
   * measure the same truck (decision 023), so their sum would count that wood twice.
   */
  diameter_volume: number;
}

/**
 * The truck dashboard's storages: every live storage of the organisation with its truck
 * measurements' count, loads and solid volume and its truck-diameter measurements' count, logs
 * and volume, under the plate filter (the truck's plate, the trailer's for a truck-diameter
 * measurement) and the two exclusive "only" boxes (neither: both kinds). One grouped query per
 * kind (the index organization_id, deleted_at, storage_id, load_count, volume for the trucks).
 */
export async function truckDashboardStorages(
  db: DB,
  ctx: Ctx,
  f: TruckDashboardFilter,
): Promise<TruckDashboardStorage[]> {
  let agg = db
    .selectFrom("truck_measurements as tm")
    .select((eb) => [
      "tm.storage_id",
      eb.fn.countAll<number>().as("measurements_count"),
      eb.fn.sum<number>("tm.load_count").as("load_count"),
      eb.fn.sum<number>("tm.volume").as("volume"),
    ])
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null)
    .groupBy("tm.storage_id");
  if (f.license_plate)
    agg = agg.where("tm.truck_id", "in", (eb) =>
      eb
        .selectFrom("trucks")
        .select("id")
        .where("organization_id", "=", ctx.organizationId)
        .where("license_plate", "like", `%${escapeLike(f.license_plate!)}%`),
    );
  let diameterAgg = db
    .selectFrom("truck_diameter_measurements as d")
    .select((eb) => [
      "d.storage_id",
      eb.fn.countAll<number>().as("measurements_count"),
      eb.fn.sum<number>("d.logs_count").as("logs_count"),
      eb.fn.sum<number>("d.volume").as("volume"),
    ])
    .where("d.organization_id", "=", ctx.organizationId)
    .where("d.deleted_at", "is", null)
    .groupBy("d.storage_id");
  if (f.license_plate)
    diameterAgg = diameterAgg.where("d.trailer_license_plate", "like", `%${escapeLike(f.license_plate)}%`);
  const [storages, totals, diameters] = await Promise.all([
    db
      .selectFrom("storages")
      .select(["id", "name", "storage_group_id"])
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .orderBy("name")
      .orderBy("id")
      .execute(),
    f.truck_diameter_measurements_only ? Promise.resolve([]) : agg.execute(),
    f.truck_measurements_only ? Promise.resolve([]) : diameterAgg.execute(),
  ]);
  const byStorage = new Map(totals.map((t) => [t.storage_id, t]));
  const diameterByStorage = new Map(diameters.map((t) => [t.storage_id, t]));
  return storages.map((s) => {
    const t = byStorage.get(s.id);
    const d = diameterByStorage.get(s.id);
    const truckCount = Number(t?.measurements_count ?? 0);
    const diameterCount = Number(d?.measurements_count ?? 0);
    return {
      ...s,
      measurements_count: truckCount + diameterCount,
      truck_count: truckCount,
      diameter_count: diameterCount,
      load_count: Number(t?.load_count ?? 0),
      logs_count: Number(d?.logs_count ?? 0),
      volume: Number(t?.volume ?? 0),
      diameter_volume: Number(d?.volume ?? 0),
    };
  });
}

/**
 * The truck dashboard's expanded row, truck-diameter part: a page of 5 of a storage's live
 * truck-diameter measurements (trailer plate filter), newest first, with total_pages.
 */
export async function searchTruckDiameterMeasurements(
  db: DB,
  ctx: Ctx,
  input: { storageId: number; licensePlate?: string; page: number },
) {
  let base = db
    .selectFrom("truck_diameter_measurements as d")
    .leftJoin("shipments as s", (j) =>
      j.onRef("s.id", "=", "d.shipment_id").on("s.organization_id", "=", ctx.organizationId),
    )
    .where("d.organization_id", "=", ctx.organizationId)
    .where("d.storage_id", "=", input.storageId)
    .where("d.deleted_at", "is", null);
  if (input.licensePlate) base = base.where("d.trailer_license_plate", "like", `%${escapeLike(input.licensePlate)}%`);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("c")).executeTakeFirstOrThrow(),
    base
      .select([
        "d.id",
        "d.trailer_license_plate",
        "s.number as shipment_number",
        "d.measurement_type_id",
        "d.logs_count",
        "d.volume",
        "d.taken_at",
      ])
      .orderBy("d.taken_at", "desc")
      .orderBy("d.id", "desc")
      .limit(TRUCK_PAGE_SIZE)
      .offset((input.page - 1) * TRUCK_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(count.c);
  return {
    meta: {
      page: input.page,
      per_page: TRUCK_PAGE_SIZE,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / TRUCK_PAGE_SIZE)),
    },
    measurements: rows,
  };
}

/** The organisation's active custom fields for truck measurements, to label stored values. */
export async function listTruckCustomFields(db: Executor, ctx: Ctx) {
  return db
    .selectFrom("custom_fields")
    .select(["id", "key", "name", "data_type"])
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", "truck_measurement")
    .where("archived", "=", false)
    .orderBy("id")
    .execute();
}

/**
 * The truck measurement's plug into the device upload envelope (services/measurement-uploads):
 * loads, plate, shipment number, weight; volumes from app/domain/truck.ts on insert.
 */
export const truckDeviceUpload: DeviceUploadPlug<
  TruckDeviceMeasurementInput,
  { customFields: Record<string, unknown> }
> = {
  kind: "truck",
  schema: TruckDeviceMeasurementSchema,

  async prepare(db, ctx, input) {
    const custom = await checkCustomFields(db, ctx, "truck", input.custom_fields, { requireAll: false });
    const errors: Record<string, string[]> = { ...custom.errors };
    const [woodTypes, qualities, assortments] = await Promise.all([
      knownLookups(
        db,
        ctx,
        "wood_types",
        input.loads.flatMap((l) => (l.wood_type_id ? [l.wood_type_id] : [])),
      ),
      knownLookups(
        db,
        ctx,
        "wood_qualities",
        input.loads.flatMap((l) => (l.wood_quality_id ? [l.wood_quality_id] : [])),
      ),
      knownLookups(
        db,
        ctx,
        "assortments",
        input.loads.flatMap((l) => (l.assortment_id ? [l.assortment_id] : [])),
      ),
    ]);
    input.loads.forEach((l, i) => {
      if (l.wood_type_id && !woodTypes.has(l.wood_type_id))
        errors[`loads.${i}.wood_type_id`] = ["timber:errors.unknown"];
      if (l.wood_quality_id && !qualities.has(l.wood_quality_id))
        errors[`loads.${i}.wood_quality_id`] = ["timber:errors.unknown"];
      if (l.assortment_id && !assortments.has(l.assortment_id))
        errors[`loads.${i}.assortment_id`] = ["timber:errors.unknown"];
    });
    if (Object.keys(errors).length) throw new TimberValidationError(errors);
    return { customFields: custom.clean };
  },

  async insert(trx, ctx, device, input, { customFields }) {
    return insertTruckMeasurement(trx, ctx, {
      storage_id: input.storage_id,
      license_plate: input.license_plate || null,
      taken_at: input.taken_at,
      measured_at: input.measured_at ?? null,
      shipment_number: input.shipment_number || null,
      measurement_type_id: input.measurement_type_id,
      weight: input.weight ?? null,
      weight_density: input.weight_density ?? null,
      volume_formula: input.volume_formula || null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      device_id: device.id,
      client_id: input.client_id,
      comment: input.comment ?? null,
      custom_fields: JSON.stringify(customFields),
      loads: input.loads,
    });
  },

  async answer(db, ctx, id) {
    const m = (await getTruckMeasurementRow(db, ctx, id, { includeDeleted: true }))!;
    return { measurement: await serializeTruckMeasurement(db, ctx, m) };
  },
};
