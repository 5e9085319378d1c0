import { sql, type Transaction } from "kysely";
import type { Database } from "#db/schema";
import { NotFoundError, TimberValidationError } from "~/models/measurement-kind.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import type { CheckpointInput } from "~/utils/schemas/truck";

// Truck routes and their GPS checkpoints (docs/decisions/017-trucks.md). A truck's phone starts a
// route for a truck measurement, sends checkpoints in batches (each with its own client id, so a
// batch resent after a lost answer adds nothing twice, and batches may arrive in any order) and
// finishes it. A route keeps its newest checkpoint's position (last_*), which the live map reads.
// Every query is scoped by the organisation. Publishing the new checkpoints is the caller's
// (services/truck-tracking.server.ts).

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

const ROUTE_COLUMNS = [
  "r.id",
  "r.truck_measurement_id",
  "r.started_at",
  "r.finished_at",
  "r.last_latitude",
  "r.last_longitude",
  "r.last_recorded_at",
] as const;

type RouteRow = {
  id: number;
  truck_measurement_id: number;
  started_at: Date;
  finished_at: Date | null;
  last_latitude: number | null;
  last_longitude: number | null;
  last_recorded_at: Date | null;
};

/** The spec's truck route: id, truck_measurement_id, started_at, finished_at, last_checkpoint. */
export function serializeRoute(r: RouteRow) {
  return {
    id: r.id,
    truck_measurement_id: r.truck_measurement_id,
    started_at: r.started_at,
    finished_at: r.finished_at,
    last_checkpoint:
      r.last_latitude !== null && r.last_longitude !== null
        ? {
            latitude: r.last_latitude,
            longitude: r.last_longitude,
            recorded_at: r.last_recorded_at,
            truck_route_id: r.id,
          }
        : null,
  };
}

/** GET /truck_measurements/{id}/routes: the routes of one of the organisation's live truck measurements. */
export async function measurementRoutes(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("truck_routes as r")
    .select(ROUTE_COLUMNS)
    .where("r.organization_id", "=", ctx.organizationId)
    .where("r.truck_measurement_id", "=", measurementId)
    .orderBy("r.started_at")
    .orderBy("r.id")
    .execute();
}

/** One route of the organisation whose measurement is live, or undefined. */
export async function getRoute(db: Executor, ctx: Ctx, routeId: number) {
  return db
    .selectFrom("truck_routes as r")
    .innerJoin("truck_measurements as tm", "tm.id", "r.truck_measurement_id")
    .select(ROUTE_COLUMNS)
    .where("r.id", "=", routeId)
    .where("r.organization_id", "=", ctx.organizationId)
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null)
    .executeTakeFirst();
}

/** GET /truck_routes/{id}/checkpoints: the route's path in time order. */
export async function routeCheckpoints(db: Executor, ctx: Ctx, routeId: number) {
  if (!(await getRoute(db, ctx, routeId))) throw new NotFoundError();
  return db
    .selectFrom("truck_checkpoints")
    .select(["id", "truck_route_id", "latitude", "longitude", "recorded_at", "speed", "heading"])
    .where("truck_route_id", "=", routeId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("recorded_at")
    .orderBy("id")
    .execute();
}

/**
 * GET /truck_measurements/active_routes: unfinished routes of live truck measurements, each with
 * its truck's plate and last position (one row per route; no scan of the checkpoints).
 */
export async function activeRoutes(db: Executor, ctx: Ctx) {
  const rows = await db
    .selectFrom("truck_routes as r")
    .innerJoin("truck_measurements as tm", "tm.id", "r.truck_measurement_id")
    .leftJoin("trucks as t", (j) =>
      j.onRef("t.id", "=", "tm.truck_id").on("t.organization_id", "=", ctx.organizationId),
    )
    .select([...ROUTE_COLUMNS, "t.license_plate", "tm.storage_id"])
    .where("r.organization_id", "=", ctx.organizationId)
    .where("tm.organization_id", "=", ctx.organizationId)
    .where("r.finished_at", "is", null)
    .where("tm.deleted_at", "is", null)
    .orderBy("r.started_at", "desc")
    .orderBy("r.id", "desc")
    .limit(2000)
    .execute();
  return rows.map((r) => ({ ...serializeRoute(r), license_plate: r.license_plate, storage_id: r.storage_id }));
}

/**
 * Starts a route for a live truck measurement of the organisation (404 otherwise). The same
 * client id again answers the route it made (created false).
 */
export async function startRoute(
  db: DB,
  ctx: Ctx,
  input: { client_id: string; truck_measurement_id: number; started_at: Date },
) {
  const existing = await db
    .selectFrom("truck_routes as r")
    .select(ROUTE_COLUMNS)
    .where("r.organization_id", "=", ctx.organizationId)
    .where("r.client_id", "=", input.client_id)
    .executeTakeFirst();
  if (existing) return { route: existing, created: false };
  const m = await db
    .selectFrom("truck_measurements")
    .select("id")
    .where("id", "=", input.truck_measurement_id)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!m) throw new NotFoundError();
  const result = await db
    .insertInto("truck_routes")
    .ignore()
    .values({
      organization_id: ctx.organizationId,
      truck_measurement_id: m.id,
      client_id: input.client_id,
      started_at: input.started_at,
    })
    .executeTakeFirst();
  const route = await db
    .selectFrom("truck_routes as r")
    .select(ROUTE_COLUMNS)
    .where("r.organization_id", "=", ctx.organizationId)
    .where("r.client_id", "=", input.client_id)
    .executeTakeFirstOrThrow();
  return { route, created: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/** Finishes a route (again: the first finish stays). A finish before the start is 422. */
export async function finishRoute(db: DB, ctx: Ctx, routeId: number, finishedAt: Date) {
  const route = await getRoute(db, ctx, routeId);
  if (!route) throw new NotFoundError();
  if (finishedAt < route.started_at) throw new TimberValidationError({ finished_at: ["trucks:errors.beforeStart"] });
  if (route.finished_at === null)
    await db
      .updateTable("truck_routes")
      .set({ finished_at: finishedAt })
      .where("id", "=", routeId)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
  return (await getRoute(db, ctx, routeId))!;
}

export type NewCheckpoint = {
  id: number;
  truck_route_id: number;
  latitude: number;
  longitude: number;
  recorded_at: Date;
  speed: number | null;
  heading: number | null;
};

/**
 * Stores a batch of checkpoints on a route. A checkpoint whose client id the route already has
 * is skipped (a resent batch adds nothing); one recorded before the route's start makes the whole
 * batch 422 (nothing stored). The route's last position follows the newest recorded_at, so an
 * older batch arriving late does not move the truck back. Answers the checkpoints stored now.
 */
export async function addCheckpoints(
  db: DB,
  ctx: Ctx,
  routeId: number,
  checkpoints: CheckpointInput[],
): Promise<NewCheckpoint[]> {
  if (checkpoints.length === 1) return addOneCheckpoint(db, ctx, routeId, checkpoints[0]);
  return db.transaction().execute(async (trx) => {
    // One batch of a route at a time: the skip-known check and the last position stay exact.
    const route = await trx
      .selectFrom("truck_routes as r")
      .innerJoin("truck_measurements as tm", "tm.id", "r.truck_measurement_id")
      .select(["r.id", "r.started_at", "r.last_recorded_at"])
      .where("r.id", "=", routeId)
      .where("r.organization_id", "=", ctx.organizationId)
      .where("tm.deleted_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!route) throw new NotFoundError();
    const errors: Record<string, string[]> = {};
    checkpoints.forEach((c, i) => {
      if (c.recorded_at < route.started_at) errors[`checkpoints.${i}.recorded_at`] = ["trucks:errors.beforeStart"];
    });
    if (Object.keys(errors).length) throw new TimberValidationError(errors);

    const known = new Set(
      (
        await trx
          .selectFrom("truck_checkpoints")
          .select("client_id")
          .where("truck_route_id", "=", routeId)
          .where(
            "client_id",
            "in",
            checkpoints.map((c) => c.client_id),
          )
          .execute()
      ).map((r) => r.client_id),
    );
    // The same client id twice in one batch: the first one counts.
    const fresh = new Map<string, CheckpointInput>();
    for (const c of checkpoints) if (!known.has(c.client_id) && !fresh.has(c.client_id)) fresh.set(c.client_id, c);
    if (fresh.size === 0) return [];
    const rows = [...fresh.values()].sort((a, b) => a.recorded_at.getTime() - b.recorded_at.getTime());
    await trx
      .insertInto("truck_checkpoints")
      .values(
        rows.map((c) => ({
          organization_id: ctx.organizationId,
          truck_route_id: routeId,
          client_id: c.client_id,
          latitude: c.latitude,
          longitude: c.longitude,
          recorded_at: c.recorded_at,
          speed: c.speed ?? null,
          heading: c.heading ?? null,
        })),
      )
      .execute();
    const stored = await trx
      .selectFrom("truck_checkpoints")
      .select(["id", "truck_route_id", "latitude", "longitude", "recorded_at", "speed", "heading"])
      .where("truck_route_id", "=", routeId)
      .where("client_id", "in", [...fresh.keys()])
      .orderBy("recorded_at")
      .orderBy("id")
      .execute();
    const newest = stored[stored.length - 1];
    if (!route.last_recorded_at || newest.recorded_at >= route.last_recorded_at)
      await trx
        .updateTable("truck_routes")
        .set({
          last_latitude: newest.latitude,
          last_longitude: newest.longitude,
          last_recorded_at: newest.recorded_at,
        })
        .where("id", "=", routeId)
        .execute();
    return stored;
  });
}

/**
 * The common batch, one checkpoint (a phone online sends each as it is recorded), in three
 * statements and no transaction: the route (scoped, live measurement), `INSERT IGNORE` on the
 * unique (route, client id), so a resent checkpoint adds nothing and answers none, and the last
 * position moved only forward by a conditional UPDATE, which is atomic on its row. Same answers
 * as the batch path, without its lock, known-ids read and read-back (benchmark: decision 017).
 */
async function addOneCheckpoint(db: DB, ctx: Ctx, routeId: number, c: CheckpointInput): Promise<NewCheckpoint[]> {
  const route = await db
    .selectFrom("truck_routes as r")
    .innerJoin("truck_measurements as tm", "tm.id", "r.truck_measurement_id")
    .select(["r.id", "r.started_at"])
    .where("r.id", "=", routeId)
    .where("r.organization_id", "=", ctx.organizationId)
    .where("tm.deleted_at", "is", null)
    .executeTakeFirst();
  if (!route) throw new NotFoundError();
  if (c.recorded_at < route.started_at)
    throw new TimberValidationError({ "checkpoints.0.recorded_at": ["trucks:errors.beforeStart"] });
  const row = {
    truck_route_id: routeId,
    latitude: c.latitude,
    longitude: c.longitude,
    recorded_at: c.recorded_at,
    speed: c.speed ?? null,
    heading: c.heading ?? null,
  };
  const inserted = await db
    .insertInto("truck_checkpoints")
    .ignore()
    .values({ ...row, organization_id: ctx.organizationId, client_id: c.client_id })
    .executeTakeFirst();
  if (!Number(inserted.numInsertedOrUpdatedRows ?? 0)) return [];
  await db
    .updateTable("truck_routes")
    .set({ last_latitude: c.latitude, last_longitude: c.longitude, last_recorded_at: c.recorded_at })
    .where("id", "=", routeId)
    .where("organization_id", "=", ctx.organizationId)
    .where((eb) => eb.or([eb("last_recorded_at", "is", null), eb("last_recorded_at", "<=", c.recorded_at)]))
    .execute();
  return [{ id: Number(inserted.insertId), ...row }];
}

/** How many checkpoints a route has (tests and the benchmark). */
export async function countCheckpoints(db: Executor, ctx: Ctx, routeId: number) {
  const r = await db
    .selectFrom("truck_checkpoints")
    .select(sql<number>`count(*)`.as("c"))
    .where("truck_route_id", "=", routeId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.c);
}
