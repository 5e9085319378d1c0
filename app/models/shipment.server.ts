import { sql, type Transaction } from "kysely";
import type { Database, ReferenceLineJson } from "#db/schema";
import { paginationWindow, shipmentSides, shipmentVolume, truckDiameterFigures } from "~/domain/shipment";
import { actorOf, recordHistory, snapshotOne } from "~/models/measurement-history.server";
import {
  checkCustomFields,
  NotFoundError,
  openEditableRow,
  softDeleteMeasurements,
  TimberValidationError,
  type DeviceUploadPlug,
} from "~/models/measurement-kind.server";
import { photoUrl, screenPhotoUrl } from "~/models/measurement-photo.server";
import { findOrCreateShipment } from "~/models/shipment-number.server";
import { speciesOf } from "~/models/timber.server";
import { escapeLike, patchTruckMeasurement } from "~/models/truck.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import {
  SHIPMENTS_PAGE_SIZE,
  TruckDiameterDeviceSchema,
  type CmpcFilter,
  type TruckCmpcPatch,
  type TruckDiameterDeviceInput,
  type TruckDiameterPatch,
} from "~/utils/schemas/shipment";

// Shipments of a pulp mill (docs/decisions/023-shipments.md). A shipment is a delivery by its
// number, unique per organisation, made when a device first names it; it gathers truck
// measurements (load volumes) and truck-diameter measurements (log ends counted on the truck),
// incoming at the mill (type 1) and outgoing from the supplier (type 2). Truck-diameter
// measurements are a measurement kind (measurement-kind.server.ts): their volumes come from
// app/domain/shipment.ts only and are stored on the rows. Every query is scoped by the
// organisation; another organisation's row is "not found".

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

// ---- shipments ----

/** GET /shipments/list: the organisation's shipments as a lookup, newest first. */
export async function listShipments(db: Executor, ctx: Ctx) {
  return db
    .selectFrom("shipments")
    .select(["id", "number", "created_at"])
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(5000)
    .execute();
}

/** One shipment of the organisation, or undefined. */
export async function getShipment(db: Executor, ctx: Ctx, id: number) {
  return db
    .selectFrom("shipments")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

function filteredShipments(db: Executor, ctx: Ctx, f: CmpcFilter) {
  let q = db.selectFrom("shipments as s").where("s.organization_id", "=", ctx.organizationId);
  if (f.shipment_number) q = q.where("s.number", "like", `%${escapeLike(f.shipment_number)}%`);
  if (f.created_at_start) q = q.where("s.created_at", ">=", f.created_at_start);
  if (f.created_at_end) q = q.where("s.created_at", "<=", f.created_at_end);
  if (f.route_status) {
    // Routes that have sent a checkpoint (last_recorded_at is set) of the shipment's live trucks.
    q = q.where((eb) => {
      const routed = eb.exists(
        eb
          .selectFrom("truck_routes as r")
          .innerJoin("truck_measurements as tm", "tm.id", "r.truck_measurement_id")
          .select(sql`1`.as("one"))
          .whereRef("tm.shipment_id", "=", "s.id")
          .where("r.organization_id", "=", ctx.organizationId)
          .where("tm.deleted_at", "is", null)
          .where("r.last_recorded_at", "is not", null),
      );
      return f.route_status === "completed" ? routed : eb.not(routed);
    });
  }
  return q;
}

type SideRow = { shipment_id: number | null; measurement_type_id: number; n: number; logs: number; volume: number };

/** Per shipment and type: the truck and truck-diameter measurements' counts, logs and volumes. */
async function sideRows(db: Executor, ctx: Ctx, shipmentIds: ReturnType<typeof filteredShipments> | number[]) {
  const ids = Array.isArray(shipmentIds) ? shipmentIds : shipmentIds.select("s.id");
  if (Array.isArray(ids) && !ids.length) return { truck: [] as SideRow[], diameter: [] as SideRow[] };
  const [truck, diameter] = await Promise.all([
    db
      .selectFrom("truck_measurements")
      .select((eb) => [
        "shipment_id",
        "measurement_type_id",
        eb.fn.countAll<number>().as("n"),
        sql<number>`0`.as("logs"),
        eb.fn.sum<number>("volume").as("volume"),
      ])
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .where("shipment_id", "in", ids as number[])
      .groupBy(["shipment_id", "measurement_type_id"])
      .execute(),
    db
      .selectFrom("truck_diameter_measurements")
      .select((eb) => [
        "shipment_id",
        "measurement_type_id",
        eb.fn.countAll<number>().as("n"),
        eb.fn.sum<number>("logs_count").as("logs"),
        eb.fn.sum<number>("volume").as("volume"),
      ])
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .where("shipment_id", "in", ids as number[])
      .groupBy(["shipment_id", "measurement_type_id"])
      .execute(),
  ]);
  return { truck: truck as SideRow[], diameter: diameter as SideRow[] };
}

function sidesOf(rows: { truck: SideRow[]; diameter: SideRow[] }, shipmentId: number) {
  return shipmentSides(
    rows.truck
      .filter((r) => r.shipment_id === shipmentId)
      .map((r) => ({ typeId: r.measurement_type_id, count: Number(r.n), volume: Number(r.volume) })),
    rows.diameter
      .filter((r) => r.shipment_id === shipmentId)
      .map((r) => ({
        typeId: r.measurement_type_id,
        count: Number(r.n),
        logsCount: Number(r.logs),
        volume: Number(r.volume),
      })),
  );
}

/**
 * GET /dashboard_filter/cmpc: a page of the filtered shipments (newest first) with their incoming
 * and outgoing sides, routes (with checkpoints) and measurement ids; the pagination window; the
 * summary over every filtered shipment (count and total volume, app/domain/shipment.ts).
 */
export async function cmpcDashboard(db: DB, ctx: Ctx, f: CmpcFilter) {
  const base = filteredShipments(db, ctx, f);
  const [count, all, page] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("c")).executeTakeFirstOrThrow(),
    sideRows(db, ctx, base),
    base
      .select(["s.id", "s.number", "s.created_at"])
      .orderBy("s.created_at", "desc")
      .orderBy("s.id", "desc")
      .limit(SHIPMENTS_PAGE_SIZE)
      .offset((f.page - 1) * SHIPMENTS_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(count.c);
  const totalPages = Math.max(1, Math.ceil(total / SHIPMENTS_PAGE_SIZE));
  const allIds = [...new Set([...all.truck, ...all.diameter].map((r) => r.shipment_id!))];
  const summaryVolume = allIds.reduce((s, id) => s + shipmentVolume(sidesOf(all, id)), 0);
  const ids = page.map((s) => s.id);
  const [truckIds, diameterIds, routes] = ids.length
    ? await Promise.all([
        db
          .selectFrom("truck_measurements")
          .select(["id", "shipment_id"])
          .where("organization_id", "=", ctx.organizationId)
          .where("deleted_at", "is", null)
          .where("shipment_id", "in", ids)
          .orderBy("taken_at")
          .orderBy("id")
          .execute(),
        db
          .selectFrom("truck_diameter_measurements")
          .select(["id", "shipment_id"])
          .where("organization_id", "=", ctx.organizationId)
          .where("deleted_at", "is", null)
          .where("shipment_id", "in", ids)
          .orderBy("taken_at")
          .orderBy("id")
          .execute(),
        shipmentRoutes(db, ctx, ids),
      ])
    : [[], [], []];
  return {
    shipments: page.map((s) => {
      const sides = sidesOf(all, s.id);
      const own = routes.filter((r) => r.shipment_id === s.id);
      return {
        id: s.id,
        number: s.number,
        created_at: s.created_at,
        incoming_logs_count: sides.incoming.logsCount,
        incoming_volume: sides.incoming.volume,
        outgoing_logs_count: sides.outgoing.logsCount,
        outgoing_volume: sides.outgoing.volume,
        // Routes that sent checkpoints: the badge's "Completed (n)", else "No routes".
        route_count: own.filter((r) => r.checkpoints.length > 0).length,
        truck_routes: own.map(({ shipment_id: _s, ...r }) => r),
        truck_measurements: truckIds.filter((m) => m.shipment_id === s.id).map((m) => m.id),
        truck_diameter_measurements: diameterIds.filter((m) => m.shipment_id === s.id).map((m) => m.id),
      };
    }),
    meta: {
      page: Math.min(f.page, totalPages),
      per_page: SHIPMENTS_PAGE_SIZE,
      total_count: total,
      total_pages: totalPages,
    },
    pagination: paginationWindow(f.page, totalPages),
    summary: { shipments_count: total, total_volume: summaryVolume },
  };
}

/** The routes of the shipments' live truck measurements, each with its checkpoints in time order. */
export async function shipmentRoutes(db: Executor, ctx: Ctx, shipmentIds: number[]) {
  if (!shipmentIds.length) return [];
  const routes = await db
    .selectFrom("truck_routes as r")
    .innerJoin("truck_measurements as tm", "tm.id", "r.truck_measurement_id")
    .select(["r.id", "r.truck_measurement_id", "r.started_at", "r.finished_at", "tm.shipment_id"])
    .where("r.organization_id", "=", ctx.organizationId)
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null)
    .where("tm.shipment_id", "in", shipmentIds)
    .orderBy("r.started_at")
    .orderBy("r.id")
    .execute();
  const points = routes.length
    ? await db
        .selectFrom("truck_checkpoints")
        .select(["truck_route_id", "latitude", "longitude"])
        .where("organization_id", "=", ctx.organizationId)
        .where(
          "truck_route_id",
          "in",
          routes.map((r) => r.id),
        )
        .orderBy("truck_route_id")
        .orderBy("recorded_at")
        .orderBy("id")
        .execute()
    : [];
  return routes.map((r) => ({
    ...r,
    checkpoints: points
      .filter((p) => p.truck_route_id === r.id)
      .map((p) => ({ latitude: p.latitude, longitude: p.longitude })),
  }));
}

// ---- the measurement cards ----

/**
 * POST /cmpc_dashboard/search {q: {f: {shipment_id, id}}}: the shipment's truck and
 * truck-diameter measurements as cards (or the one with that id). Another organisation's
 * shipment is 404.
 */
export async function cmpcSearch(db: DB, ctx: Ctx, input: { shipmentId: number; id?: number }) {
  if (!(await getShipment(db, ctx, input.shipmentId))) throw new NotFoundError();
  let trucks = db
    .selectFrom("truck_measurements as tm")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .select([
      "tm.id",
      "tm.taken_at",
      "tm.measurement_type_id",
      "tm.volume",
      "tm.load_count",
      "tm.volume_formula",
      "tm.photo_thumbnail_key",
      "t.license_plate",
    ])
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null)
    .where("tm.shipment_id", "=", input.shipmentId);
  let diameters = db
    .selectFrom("truck_diameter_measurements")
    .select([
      "id",
      "taken_at",
      "measurement_type_id",
      "wood_type_id",
      "logs_count",
      "log_length",
      "volume",
      "volume_formula",
      "trailer_license_plate",
      "load_bed_name",
      "detector",
      "photo_thumbnail_key",
    ])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("shipment_id", "=", input.shipmentId);
  if (input.id !== undefined) {
    trucks = trucks.where("tm.id", "=", input.id);
    diameters = diameters.where("id", "=", input.id);
  }
  const [truckRows, diameterRows] = await Promise.all([
    trucks.orderBy("tm.taken_at").orderBy("tm.id").execute(),
    diameters.orderBy("taken_at").orderBy("id").execute(),
  ]);
  const loads = truckRows.length
    ? await db
        .selectFrom("truck_loads")
        .select(["truck_measurement_id", "wood_type_id", "log_length", "coefficient", "load_bed_name"])
        .where("organization_id", "=", ctx.organizationId)
        .where(
          "truck_measurement_id",
          "in",
          truckRows.map((t) => t.id),
        )
        .orderBy("load_index")
        .orderBy("id")
        .execute()
    : [];
  const distinct = <T>(values: T[]) => [...new Set(values.filter((v) => v !== null && v !== undefined))];
  return {
    truck_measurements: truckRows.map((t) => {
      const own = loads.filter((l) => l.truck_measurement_id === t.id);
      return {
        id: t.id,
        shown_name: t.license_plate ? `${t.license_plate} #${t.id}` : `#${t.id}`,
        taken_at: t.taken_at,
        wood_type_ids: distinct(own.map((l) => l.wood_type_id)),
        loads: t.load_count,
        log_lengths: distinct(own.map((l) => l.log_length)),
        volume: t.volume,
        coefficients: distinct(own.map((l) => l.coefficient)),
        truck: { license_plate: t.license_plate },
        load_beds: distinct(own.map((l) => l.load_bed_name)),
        measurement_type_id: t.measurement_type_id,
        volume_formula: t.volume_formula,
        photo_thumbnail: t.photo_thumbnail_key ? photoUrl("truck", t.id, "thumbnail") : null,
      };
    }),
    truck_diameter_measurements: diameterRows.map(({ photo_thumbnail_key, ...d }) => ({
      ...d,
      photo_thumbnail: photo_thumbnail_key ? photoUrl("truck_diameter", d.id, "thumbnail") : null,
    })),
  };
}

// ---- truck-diameter measurements ----

/** One truck-diameter measurement of the organisation (live unless asked), with its shipment's number. */
export async function getTruckDiameterRow(db: Executor, ctx: Ctx, id: number, opts: { includeDeleted?: boolean } = {}) {
  let q = db
    .selectFrom("truck_diameter_measurements as m")
    .leftJoin("shipments as s", (j) =>
      j.onRef("s.id", "=", "m.shipment_id").on("s.organization_id", "=", ctx.organizationId),
    )
    .selectAll("m")
    .select("s.number as shipment")
    .where("m.id", "=", id)
    .where("m.organization_id", "=", ctx.organizationId);
  if (!opts.includeDeleted) q = q.where("m.deleted_at", "is", null);
  return q.executeTakeFirst();
}
export type TruckDiameterRow = NonNullable<Awaited<ReturnType<typeof getTruckDiameterRow>>>;

export async function getTruckDiameterLogs(db: Executor, ctx: Ctx, id: number) {
  return db
    .selectFrom("truck_diameter_logs")
    .selectAll()
    .where("truck_diameter_measurement_id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}

async function knownWoodType(db: Executor, ctx: Ctx, id: number) {
  const row = await db
    .selectFrom("wood_types")
    .select("id")
    .where("id", "=", id)
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .executeTakeFirst();
  return !!row;
}

/** Recomputes every log's diameter and volume and the totals (app/domain/shipment.ts) and stores them. */
async function storeDiameterFigures(trx: Executor, ctx: Ctx, id: number) {
  const m = (await getTruckDiameterRow(trx, ctx, id, { includeDeleted: true }))!;
  const logs = await getTruckDiameterLogs(trx, ctx, id);
  const r = truckDiameterFigures(
    logs.map((l) => ({ id: l.id, x: l.x, y: l.y, r: l.r, isDeleted: l.is_deleted })),
    {
      references: m.reference_lines ?? [],
      formula: m.volume_formula,
      logLengthM: m.log_length,
      species: speciesOf(m.wood_type_id),
    },
  );
  if (r.logs.length)
    // One statement for all logs: a full truck has hundreds.
    await sql`UPDATE truck_diameter_logs SET d = CASE id ${sql.join(
      r.logs.map((l) => sql`WHEN ${l.id} THEN ${l.d}`),
      sql` `,
    )} END, v = CASE id ${sql.join(
      r.logs.map((l) => sql`WHEN ${l.id} THEN ${l.v}`),
      sql` `,
    )} END WHERE truck_diameter_measurement_id = ${id} AND id IN (${sql.join(r.logs.map((l) => l.id))})`.execute(trx);
  await trx
    .updateTable("truck_diameter_measurements")
    .set({ logs_count: r.logsCount, volume: r.volumeM3, updated_at: new Date() })
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .execute();
}

export interface NewTruckDiameterMeasurement {
  storage_id: number;
  taken_at: Date;
  measured_at?: Date | null;
  shipment_number?: string | null;
  measurement_type_id?: number;
  wood_type_id?: number | null;
  log_length: number;
  volume_formula?: string;
  trailer_license_plate?: string | null;
  load_bed_name?: string | null;
  detector?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  device_id?: number | null;
  client_id?: string | null;
  comment?: string | null;
  custom_fields?: string;
  logs: Array<{ x: number; y: number; r: number; isDeleted?: boolean }>;
  references: ReferenceLineJson[];
}

/** Creates a truck-diameter measurement with its logs (device upload, seed, tests), in its shipment. */
export async function insertTruckDiameterMeasurement(trx: Executor, ctx: Ctx, input: NewTruckDiameterMeasurement) {
  const { logs, references, shipment_number, ...fields } = input;
  const number = shipment_number?.trim() || null;
  const shipmentId = number ? await findOrCreateShipment(trx, ctx, number) : null;
  const inserted = await trx
    .insertInto("truck_diameter_measurements")
    .values({
      ...fields,
      organization_id: ctx.organizationId,
      shipment_id: shipmentId,
      shipment_number: number,
      reference_lines: JSON.stringify(references),
    })
    .executeTakeFirstOrThrow();
  const id = Number(inserted.insertId);
  if (logs.length)
    await trx
      .insertInto("truck_diameter_logs")
      .values(
        logs.map((l) => ({
          organization_id: ctx.organizationId,
          truck_diameter_measurement_id: id,
          x: l.x,
          y: l.y,
          r: l.r,
          is_deleted: l.isDeleted ?? false,
        })),
      )
      .execute();
  await storeDiameterFigures(trx, ctx, id);
  return id;
}

/**
 * PATCH /measurements/cmpc/truck_diameter/{id}: logs with an id are changed, logs without one
 * added (x, y, r needed), logs_removed marked deleted; references replaced; the formula set.
 * Every input is checked before anything is written (422 with every field's errors), then the
 * figures are recomputed. Editing rules are every kind's (404, 403, 409 locked).
 */
export async function patchTruckDiameter(db: DB, ctx: AuthContext, id: number, patch: TruckDiameterPatch) {
  return db.transaction().execute(async (trx) => {
    const m = await openEditableRow(trx, ctx, "truck_diameter", id);
    const logs = await getTruckDiameterLogs(trx, ctx, id);
    // The history (decision 024): the state before is the row opened and the logs just read,
    // compared after the change in this transaction with the state read then (the logs'
    // diameters and volumes are computed in SQL, and the answer's row carries the shipment).
    const before = await snapshotOne(trx, ctx, "truck_diameter", id, { row: m, children: { logs } });
    const byId = new Map(logs.map((l) => [l.id, l]));
    const errors: Record<string, string[]> = {};
    (patch.logs ?? []).forEach((c, i) => {
      if (c.id !== undefined && !byId.has(c.id)) errors[`logs.${i}.id`] = ["timber:errors.unknown"];
      if (c.id === undefined && (c.x === undefined || c.y === undefined || c.r === undefined))
        errors[`logs.${i}`] = ["timber:errors.logNeedsXYR"];
    });
    (patch.logs_removed ?? []).forEach((logId, i) => {
      if (!byId.has(logId)) errors[`logs_removed.${i}`] = ["timber:errors.unknown"];
    });
    if (Object.keys(errors).length) throw new TimberValidationError(errors);

    const now = new Date();
    const added = (patch.logs ?? []).filter((c) => c.id === undefined);
    if (added.length)
      await trx
        .insertInto("truck_diameter_logs")
        .values(
          added.map((c) => ({
            organization_id: ctx.organizationId,
            truck_diameter_measurement_id: id,
            x: c.x!,
            y: c.y!,
            r: c.r!,
            is_deleted: c.isDeleted ?? false,
            modified_at: now,
          })),
        )
        .execute();
    for (const c of patch.logs ?? []) {
      if (c.id === undefined) continue;
      const set: { modified_at: Date; x?: number; y?: number; r?: number; is_deleted?: boolean } = { modified_at: now };
      if (c.x !== undefined) set.x = c.x;
      if (c.y !== undefined) set.y = c.y;
      if (c.r !== undefined) set.r = c.r;
      if (c.isDeleted !== undefined) set.is_deleted = c.isDeleted;
      await trx
        .updateTable("truck_diameter_logs")
        .set(set)
        .where("id", "=", c.id)
        .where("truck_diameter_measurement_id", "=", id)
        .execute();
    }
    if (patch.logs_removed?.length)
      await trx
        .updateTable("truck_diameter_logs")
        .set({ is_deleted: true, modified_at: now })
        .where("id", "in", patch.logs_removed)
        .where("truck_diameter_measurement_id", "=", id)
        .execute();
    const set: { reference_lines?: string; volume_formula?: string } = {};
    if (patch.references) set.reference_lines = JSON.stringify(patch.references);
    if (patch.volume_formula) set.volume_formula = patch.volume_formula;
    if (Object.keys(set).length)
      await trx
        .updateTable("truck_diameter_measurements")
        .set(set)
        .where("id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .execute();
    await storeDiameterFigures(trx, ctx, id);
    await recordHistory(trx, ctx, actorOf(ctx), "truck_diameter", "edited", before);
    return (await getTruckDiameterRow(trx, ctx, id))!;
  });
}

/** The API's truck-diameter measurement (the spec's entity), with its logs and references. */
export async function serializeTruckDiameter(db: Executor, ctx: Ctx, m: TruckDiameterRow) {
  const logs = await getTruckDiameterLogs(db, ctx, m.id);
  return {
    id: m.id,
    storage_id: m.storage_id,
    shipment_id: m.shipment_id,
    shipment_number: m.shipment,
    measurement_type_id: m.measurement_type_id,
    wood_type_id: m.wood_type_id,
    log_length: m.log_length,
    volume: m.volume,
    logs_count: m.logs_count,
    volume_formula: m.volume_formula,
    trailer_license_plate: m.trailer_license_plate,
    load_bed_name: m.load_bed_name,
    detector: m.detector,
    taken_at: m.taken_at,
    measured_at: m.measured_at,
    latitude: m.latitude,
    longitude: m.longitude,
    image: screenPhotoUrl("truck_diameter", m),
    photo_optimized: m.photo_optimized_key ? photoUrl("truck_diameter", m.id, "optimized") : null,
    photo_popup: m.photo_popup_key ? photoUrl("truck_diameter", m.id, "popup") : null,
    photo_thumbnail: m.photo_thumbnail_key ? photoUrl("truck_diameter", m.id, "thumbnail") : null,
    inventory_id: m.inventory_id,
    device_id: m.device_id,
    created_at: m.created_at,
    updated_at: m.updated_at,
    references: m.reference_lines ?? [],
    logs: logs.map((l) => ({ id: l.id, x: l.x, y: l.y, r: l.r, d: l.d, v: l.v, isDeleted: l.is_deleted })),
  };
}

/**
 * The truck-diameter measurement's plug into the device upload envelope: the species and custom
 * fields are checked, the shipment made on first use, the figures computed by app/domain.
 */
export const truckDiameterDeviceUpload: DeviceUploadPlug<
  TruckDiameterDeviceInput,
  { customFields: Record<string, unknown> }
> = {
  kind: "truck_diameter",
  schema: TruckDiameterDeviceSchema,

  async prepare(db, ctx, input, photo) {
    const custom = await checkCustomFields(db, ctx, "truck_diameter", input.custom_fields, { requireAll: false });
    const errors: Record<string, string[]> = { ...custom.errors };
    if (input.wood_type_id && !(await knownWoodType(db, ctx, input.wood_type_id)))
      errors.wood_type_id = ["timber:errors.unknown"];
    input.logs.forEach((l, i) => {
      if (l.x > photo.width || l.y > photo.height) errors[`logs.${i}`] = ["shipments:errors.outsidePhoto"];
    });
    if (input.logs.length && !input.references.length) errors.references = ["timber:errors.referenceNeeded"];
    if (Object.keys(errors).length) throw new TimberValidationError(errors);
    return { customFields: custom.clean };
  },

  async insert(trx, ctx, device, input, { customFields }) {
    return insertTruckDiameterMeasurement(trx, ctx, {
      storage_id: input.storage_id,
      taken_at: input.taken_at,
      measured_at: input.measured_at ?? null,
      shipment_number: input.shipment_number || null,
      measurement_type_id: input.measurement_type_id,
      wood_type_id: input.wood_type_id ?? null,
      log_length: input.log_length,
      volume_formula: input.volume_formula,
      trailer_license_plate: input.trailer_license_plate || null,
      load_bed_name: input.load_bed_name || null,
      detector: input.detector || null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      device_id: device.id,
      client_id: input.client_id,
      comment: input.comment ?? null,
      custom_fields: JSON.stringify(customFields),
      logs: input.logs,
      references: input.references,
    });
  },

  async answer(db, ctx, id) {
    const m = (await getTruckDiameterRow(db, ctx, id, { includeDeleted: true }))!;
    return { measurement: await serializeTruckDiameter(db, ctx, m) };
  },
};

/**
 * DELETE /truck_diameter_measurements: soft, all or nothing, with a history line each (the kind
 * rules of every measurement: 404 for an id not the organisation's, 403 for a viewer, 409 locked).
 */
export function deleteTruckDiameterMeasurements(
  db: DB,
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  ids: number[],
) {
  return softDeleteMeasurements(db, ctx, "truck_diameter", ids);
}

// ---- truck measurements in the cmpc editor ----

/**
 * PATCH /measurements/cmpc/truck/{id} {references, volume_formula}: the reference lines drawn on
 * the truck's photo and its formula; the load volumes do not depend on either.
 */
export async function patchTruckCmpc(db: DB, ctx: AuthContext, id: number, patch: TruckCmpcPatch) {
  // The truck detail's editor saves the same through PATCH /truck_measurements/{id}: one code
  // path, so both write the history and recompute the totals alike.
  return patchTruckMeasurement(db, ctx, id, patch);
}

/** A truck measurement of the organisation with its shipment's number and reference lines (the cmpc detail). */
export async function getCmpcTruckRow(db: Executor, ctx: Ctx, id: number) {
  return db
    .selectFrom("truck_measurements as tm")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .leftJoin("shipments as s", (j) =>
      j.onRef("s.id", "=", "tm.shipment_id").on("s.organization_id", "=", ctx.organizationId),
    )
    .selectAll("tm")
    .select(["t.license_plate", "s.number as shipment"])
    .where("tm.id", "=", id)
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null)
    .executeTakeFirst();
}

export { findOrCreateShipment };
