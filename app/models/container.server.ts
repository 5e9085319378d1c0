import { sql, type Transaction } from "kysely";
import type { BillOfLading, Container, Database } from "#db/schema";
import { createPublicLink, publicTokensOf, rotatePublicLink } from "~/models/public-link.server";
import { EDITING_ROLES } from "~/models/role.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/utils/errors";
import {
  BOL_PAGE_SIZE,
  type BillOfLadingPatch,
  type ContainerFilter,
  type ContainerPatch,
  type ContainersCreate,
} from "~/utils/schemas/containers";

// Bills of lading and containers (docs/decisions/022-containers.md). A bill groups containers;
// a container's log count and volume are the sums of its container measurements' stored JAS
// figures (app/domain/container.ts computes them per measurement). Every query is scoped by the
// caller's organisation; another organisation's bill or container is a NotFoundError, and an id
// of one in a body is answered as an unknown id (422).

type Executor = DB | Transaction<Database>;
type Ctx = Pick<AuthContext, "organizationId">;
type EditorCtx = Pick<AuthContext, "organizationId" | "roles">;
type MakerCtx = EditorCtx & { userId?: number; user?: { time_zone: string | null } };

/** Creating and editing bills and containers needs measurer, admin or super_admin on the organisation. */
export function canEditContainers(ctx: EditorCtx) {
  return ctx.roles.some(
    (r) =>
      EDITING_ROLES.includes(r.name) && r.assignable_type === "Organization" && r.assignable_id === ctx.organizationId,
  );
}

export function requireContainerEditor(ctx: EditorCtx) {
  if (!canEditContainers(ctx)) throw new ForbiddenError();
}

function maker(ctx: MakerCtx) {
  return { organizationId: ctx.organizationId, userId: ctx.userId ?? null, timeZone: ctx.user?.time_zone ?? null };
}

// ---- existence (tenancy) ----

export async function billOfLadingExists(db: Executor, organizationId: number, id: number) {
  const row = await db
    .selectFrom("bill_of_ladings")
    .select("id")
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function containerExists(db: Executor, organizationId: number, id: number) {
  const row = await db
    .selectFrom("containers")
    .select("id")
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

async function knownIds(
  db: Executor,
  ctx: Ctx,
  table: "container_contracts" | "bill_of_ladings" | "containers",
  ids: number[],
) {
  if (!ids.length) return new Set<number>();
  const rows = await db
    .selectFrom(table)
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

async function knownAssortment(db: Executor, ctx: Ctx, id: number) {
  const row = await db
    .selectFrom("assortments")
    .select("id")
    .where("id", "=", id)
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .executeTakeFirst();
  return row !== undefined;
}

// ---- figures ----

export interface ContainerFigures {
  measurement_count: number;
  log_count: number;
  volume: number;
}

/** Each container's measurement count, log count and volume (live measurements), by container id. */
export async function containerFigures(db: Executor, ctx: Ctx, containerIds: number[]) {
  const out = new Map<number, ContainerFigures>();
  if (!containerIds.length) return out;
  const rows = await db
    .selectFrom("container_measurements")
    .select((eb) => [
      "container_id",
      eb.fn.countAll<number>().as("measurement_count"),
      eb.fn.sum<number>("logs_count").as("log_count"),
      eb.fn.sum<number>("volume").as("volume"),
    ])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("container_id", "in", containerIds)
    .groupBy("container_id")
    .execute();
  for (const r of rows)
    out.set(r.container_id!, {
      measurement_count: Number(r.measurement_count),
      log_count: Number(r.log_count ?? 0),
      volume: Number(r.volume ?? 0),
    });
  return out;
}

const ZERO: ContainerFigures = { measurement_count: 0, log_count: 0, volume: 0 };

// ---- bills of lading ----

export async function createBillOfLading(db: DB, ctx: MakerCtx, input: { name: string }) {
  requireContainerEditor(ctx);
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("bill_of_ladings")
      .values({ organization_id: ctx.organizationId, name: input.name })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    // Shared at once, as a storage is: the buyer gets the link with the tally sheet.
    await createPublicLink(trx, maker(ctx), "bill_of_lading", id);
    return id;
  });
}

export async function patchBillOfLading(db: DB, ctx: MakerCtx, id: number, patch: BillOfLadingPatch) {
  return db.transaction().execute(async (trx) => {
    if (!(await billOfLadingExists(trx, ctx.organizationId, id))) throw new NotFoundError();
    requireContainerEditor(ctx);
    const errors: Record<string, string[]> = {};
    if (patch.contract_id && !(await knownIds(trx, ctx, "container_contracts", [patch.contract_id])).size)
      errors.contract_id = ["containers:errors.unknown"];
    if (patch.wood_characteristic_id && !(await knownAssortment(trx, ctx, patch.wood_characteristic_id)))
      errors.wood_characteristic_id = ["containers:errors.unknown"];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const set: Partial<{
      name: string;
      contract_id: number | null;
      wood_characteristic_id: number | null;
      archived: boolean;
      updated_at: Date;
    }> = { updated_at: new Date() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.contract_id !== undefined) set.contract_id = patch.contract_id;
    if (patch.wood_characteristic_id !== undefined) set.wood_characteristic_id = patch.wood_characteristic_id;
    if (patch.archived !== undefined) set.archived = patch.archived;
    await trx
      .updateTable("bill_of_ladings")
      .set(set)
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    if (patch.token !== undefined) await rotatePublicLink(trx, maker(ctx), "bill_of_lading", id);
  });
}

export interface BillOfLadingView {
  id: number;
  name: string;
  token: string | null;
  contract_id: number | null;
  wood_characteristic_id: number | null;
  archived: boolean;
  created_at: Date;
  container_count: number;
  log_count: number;
  volume: number;
  containers: ContainerView[];
  summary: { container_count: number; log_count: number; volume: number; containers: number[] };
}

/** One bill of lading with its containers and their figures (the spec's entity). */
export async function getBillOfLading(db: Executor, ctx: Ctx, id: number): Promise<BillOfLadingView> {
  const bol = await db
    .selectFrom("bill_of_ladings")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  if (!bol) throw new NotFoundError();
  const containers = await containersOfBill(db, ctx, id);
  const token = (await publicTokensOf(db, ctx, "bill_of_lading", [id])).get(id) ?? null;
  const log_count = containers.reduce((s, c) => s + c.log_count, 0);
  const volume = containers.reduce((s, c) => s + c.volume, 0);
  return {
    id: bol.id,
    name: bol.name,
    token,
    contract_id: bol.contract_id,
    wood_characteristic_id: bol.wood_characteristic_id,
    archived: Boolean(bol.archived),
    created_at: bol.created_at,
    container_count: containers.length,
    log_count,
    volume,
    containers,
    summary: { container_count: containers.length, log_count, volume, containers: containers.map((c) => c.id) },
  };
}

/** GET /containers/bill_of_ladings/list: id and name of every bill, active first. */
export async function listBillOfLadings(db: Executor, ctx: Ctx) {
  const rows = await db
    .selectFrom("bill_of_ladings")
    .select(["id", "name", "archived"])
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("archived")
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, archived: Boolean(r.archived) }));
}

/** GET /containers/contracts. */
export async function listContracts(db: Executor, ctx: Ctx) {
  return db
    .selectFrom("container_contracts")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("name")
    .orderBy("id")
    .execute();
}

// ---- containers ----

export interface ContainerView {
  id: number;
  name: string;
  bill_of_lading_id: number | null;
  seal_number: string | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  tare_weight: number | null;
  net_weight: number | null;
  created_at: Date;
  token: string | null;
  measurement_count: number;
  log_count: number;
  volume: number;
  container_log_count: number;
  container_volume: number;
}

async function containerViews(db: Executor, ctx: Ctx, rows: Container[]) {
  const ids = rows.map((r) => r.id);
  const [figures, tokens] = await Promise.all([
    containerFigures(db, ctx, ids),
    publicTokensOf(db, ctx, "container", ids),
  ]);
  return rows.map((c): ContainerView => {
    const f = figures.get(c.id) ?? ZERO;
    return {
      id: c.id,
      name: c.name,
      bill_of_lading_id: c.bill_of_lading_id,
      seal_number: c.seal_number,
      weight: c.weight,
      width: c.width,
      height: c.height,
      tare_weight: c.tare_weight,
      net_weight: c.net_weight,
      created_at: c.created_at,
      token: tokens.get(c.id) ?? null,
      ...f,
      container_log_count: f.log_count,
      container_volume: f.volume,
    };
  });
}

/** GET /containers/containers?bol_id=: the bill's containers (404 for another organisation's bill). */
export async function containersOfBill(db: Executor, ctx: Ctx, bolId: number) {
  if (!(await billOfLadingExists(db, ctx.organizationId, bolId))) throw new NotFoundError();
  const rows = await db
    .selectFrom("containers")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("bill_of_lading_id", "=", bolId)
    .orderBy("name")
    .orderBy("id")
    .execute();
  return containerViews(db, ctx, rows);
}

/** GET /containers/containers/{id}. */
export async function getContainer(db: Executor, ctx: Ctx, id: number): Promise<ContainerView> {
  const row = await db
    .selectFrom("containers")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError();
  return (await containerViews(db, ctx, [row]))[0]!;
}

/** GET /containers/containers/list: id, name and bill of every container. */
export async function listContainers(db: Executor, ctx: Ctx) {
  return db
    .selectFrom("containers")
    .select(["id", "name", "bill_of_lading_id"])
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("name")
    .orderBy("id")
    .execute();
}

/** POST /containers/containers: one container per name in the bill; their ids in order. */
export async function createContainers(db: DB, ctx: MakerCtx, input: ContainersCreate) {
  requireContainerEditor(ctx);
  return db.transaction().execute(async (trx) => {
    if (!(await billOfLadingExists(trx, ctx.organizationId, input.bill_of_lading_id)))
      throw new ValidationError({ bill_of_lading_id: ["containers:errors.unknown"] });
    const ids: number[] = [];
    for (const name of input.name) {
      const r = await trx
        .insertInto("containers")
        .values({
          organization_id: ctx.organizationId,
          bill_of_lading_id: input.bill_of_lading_id,
          name,
          tare_weight: input.tare_weight ?? null,
          net_weight: input.net_weight ?? null,
        })
        .executeTakeFirstOrThrow();
      const id = Number(r.insertId);
      await createPublicLink(trx, maker(ctx), "container", id);
      ids.push(id);
    }
    return ids;
  });
}

/** PATCH /containers/containers/{id}. */
export async function patchContainer(db: DB, ctx: MakerCtx, id: number, patch: ContainerPatch) {
  return db.transaction().execute(async (trx) => {
    if (!(await containerExists(trx, ctx.organizationId, id))) throw new NotFoundError();
    requireContainerEditor(ctx);
    if (patch.bill_of_lading_id && !(await billOfLadingExists(trx, ctx.organizationId, patch.bill_of_lading_id)))
      throw new ValidationError({ bill_of_lading_id: ["containers:errors.unknown"] });
    const { token, ...fields } = patch;
    await trx
      .updateTable("containers")
      .set({ ...fields, updated_at: new Date() })
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    // Any token value rotates the container's public link, as a bill's: the old token stops at once.
    if (token !== undefined) await rotatePublicLink(trx, maker(ctx), "container", id);
  });
}

// ---- the container filter ----

export interface FilteredBill {
  id: number;
  name: string;
  token: string | null;
  contract_id: number | null;
  wood_characteristic_id: number | null;
  archived: boolean;
  created_at: Date;
  container_count: number;
  log_count: number;
  volume: number;
  containers: Array<{ id: number; name: string; log_count: number; volume: number; measurement_count: number }>;
}

export function measurementFilterActive(f: ContainerFilter) {
  return Boolean(
    f.measurement_type_ids?.length ||
    f.wood_quality_ids?.length ||
    f.wood_type_ids?.length ||
    f.wood_characteristic_ids?.length ||
    f.device_ids?.length ||
    f.measurement_ids?.length ||
    f.length_range_start !== undefined ||
    f.length_range_end !== undefined ||
    f.volume_range_start !== undefined ||
    f.volume_range_end !== undefined ||
    f.created_at_start ||
    f.created_at_end ||
    f.measured_at_start ||
    f.measured_at_end ||
    f.taken_at_start ||
    f.taken_at_end ||
    f.shipment_number ||
    f.shipment_ids?.length ||
    f.truck_measurements_only ||
    f.truck_diameter_measurements_only ||
    f.trailer_license_plate,
  );
}

/** The container measurements the filter keeps (live, of the organisation, in a container). */
export function filteredMeasurements(db: Executor, ctx: Ctx, f: ContainerFilter) {
  let q = db
    .selectFrom("container_measurements as cm")
    .where("cm.organization_id", "=", ctx.organizationId)
    .where("cm.deleted_at", "is", null)
    .where("cm.container_id", "is not", null);
  if (f.measurement_type_ids?.length) q = q.where("cm.measurement_type_id", "in", f.measurement_type_ids);
  if (f.wood_quality_ids?.length) q = q.where("cm.wood_quality_id", "in", f.wood_quality_ids);
  if (f.wood_type_ids?.length) q = q.where("cm.wood_type_id", "in", f.wood_type_ids);
  if (f.wood_characteristic_ids?.length) q = q.where("cm.assortment_id", "in", f.wood_characteristic_ids);
  if (f.device_ids?.length) q = q.where("cm.device_id", "in", f.device_ids);
  if (f.measurement_ids?.length) q = q.where("cm.id", "in", f.measurement_ids);
  if (f.length_range_start !== undefined) q = q.where("cm.log_length", ">=", f.length_range_start);
  if (f.length_range_end !== undefined) q = q.where("cm.log_length", "<=", f.length_range_end);
  if (f.volume_range_start !== undefined) q = q.where("cm.volume", ">=", f.volume_range_start);
  if (f.volume_range_end !== undefined) q = q.where("cm.volume", "<=", f.volume_range_end);
  if (f.created_at_start) q = q.where("cm.created_at", ">=", f.created_at_start);
  if (f.created_at_end) q = q.where("cm.created_at", "<=", f.created_at_end);
  if (f.measured_at_start) q = q.where("cm.measured_at", ">=", f.measured_at_start);
  if (f.measured_at_end) q = q.where("cm.measured_at", "<=", f.measured_at_end);
  if (f.taken_at_start) q = q.where("cm.taken_at", ">=", f.taken_at_start);
  if (f.taken_at_end) q = q.where("cm.taken_at", "<=", f.taken_at_end);
  if (f.shipment_number) q = q.where("cm.shipment_number", "=", f.shipment_number);
  if (f.shipment_ids?.length) {
    const ids = f.shipment_ids;
    q = q.where("cm.shipment_number", "in", (eb) =>
      eb
        .selectFrom("shipments")
        .select("number")
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", ids),
    );
  }
  // No container measurement is a truck or truck-diameter measurement or has a trailer.
  if (f.truck_measurements_only || f.truck_diameter_measurements_only || f.trailer_license_plate)
    q = q.where(sql<boolean>`false`);
  return q;
}

/** The bills of lading the filter keeps (active, or archived when asked; with a measurement filter, only bills with a match). */
function filteredBills(db: Executor, ctx: Ctx, f: ContainerFilter) {
  let bills = db
    .selectFrom("bill_of_ladings as b")
    .where("b.organization_id", "=", ctx.organizationId)
    .where("b.archived", "=", f.archived ?? false);
  if (f.bill_of_lading_ids?.length) bills = bills.where("b.id", "in", f.bill_of_lading_ids);
  if (measurementFilterActive(f))
    bills = bills.where("b.id", "in", () =>
      filteredMeasurements(db, ctx, f)
        .innerJoin("containers as c", "c.id", "cm.container_id")
        .select("c.bill_of_lading_id")
        .where("c.bill_of_lading_id", "is not", null)
        .$narrowType<{ bill_of_lading_id: number }>(),
    );
  return bills;
}

type BillRow = BillOfLading;

/**
 * The filter's rows for some bills: each bill with its containers (by name) and the log count
 * and volume of the measurements the filter keeps; with a measurement filter, only the containers
 * with such a measurement. One grouped query over container_measurements plus the containers.
 */
async function billsWithFigures(db: Executor, ctx: Ctx, f: ContainerFilter, page: BillRow[]) {
  const filtered = measurementFilterActive(f);
  const billIds = page.map((b) => b.id);
  // The page's containers and its bills' links side by side (one round trip fewer).
  const [containers, tokens] = await Promise.all([
    billIds.length
      ? db
          .selectFrom("containers")
          .select(["id", "name", "bill_of_lading_id"])
          .where("organization_id", "=", ctx.organizationId)
          .where("bill_of_lading_id", "in", billIds)
          .orderBy("name")
          .orderBy("id")
          .execute()
      : Promise.resolve([]),
    publicTokensOf(db, ctx, "bill_of_lading", billIds),
  ]);
  const figures = new Map<number, ContainerFigures>();
  if (containers.length) {
    const rows = await filteredMeasurements(db, ctx, f)
      .select((eb) => [
        "cm.container_id",
        eb.fn.countAll<number>().as("measurement_count"),
        eb.fn.sum<number>("cm.logs_count").as("log_count"),
        eb.fn.sum<number>("cm.volume").as("volume"),
      ])
      .where(
        "cm.container_id",
        "in",
        containers.map((c) => c.id),
      )
      .groupBy("cm.container_id")
      .execute();
    for (const r of rows)
      figures.set(r.container_id!, {
        measurement_count: Number(r.measurement_count),
        log_count: Number(r.log_count ?? 0),
        volume: Number(r.volume ?? 0),
      });
  }
  return page.map((b): FilteredBill => {
    const cs = containers
      .filter((c) => c.bill_of_lading_id === b.id)
      .map((c) => ({ id: c.id, name: c.name, ...(figures.get(c.id) ?? ZERO) }))
      .filter((c) => !filtered || c.measurement_count > 0);
    return {
      id: b.id,
      name: b.name,
      token: tokens.get(b.id) ?? null,
      contract_id: b.contract_id,
      wood_characteristic_id: b.wood_characteristic_id,
      archived: Boolean(b.archived),
      created_at: b.created_at,
      container_count: cs.length,
      log_count: cs.reduce((s, c) => s + c.log_count, 0),
      volume: cs.reduce((s, c) => s + c.volume, 0),
      containers: cs,
    };
  });
}

/**
 * POST /containers/container_filter: a page of bills of lading (active, or archived when asked),
 * newest first, each with its containers' count and the log count and volume of the measurements
 * the filter keeps; with a measurement filter, only bills with such a measurement. One grouped
 * query over container_measurements per page plus the page's bills and containers.
 */
export async function containerFilter(db: Executor, ctx: Ctx, f: ContainerFilter) {
  const bills = filteredBills(db, ctx, f);
  const [count, page] = await Promise.all([
    bills.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    bills
      .selectAll("b")
      .orderBy("b.created_at", "desc")
      .orderBy("b.id", "desc")
      .limit(BOL_PAGE_SIZE)
      .offset((f.page - 1) * BOL_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(count.n);
  return {
    bill_of_ladings: await billsWithFigures(db, ctx, f, page),
    meta: {
      page: f.page,
      per_page: BOL_PAGE_SIZE,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / BOL_PAGE_SIZE)),
    },
  };
}

/** How many bills the filter keeps (every page): what container_dashboard_excel will list. */
export async function countFilteredBills(db: Executor, ctx: Ctx, f: ContainerFilter) {
  const row = await filteredBills(db, ctx, f)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Every bill the filter keeps, in the screen's order (newest first), as the screen's rows, read
 * `batch` bills at a time so a long dashboard does not sit in memory (container_dashboard_excel).
 */
export async function* streamFilteredBills(db: Executor, ctx: Ctx, f: ContainerFilter, batch = 200) {
  let after: { created_at: Date; id: number } | null = null;
  for (;;) {
    let q = filteredBills(db, ctx, f).selectAll("b");
    if (after) {
      const { created_at, id } = after;
      q = q.where((eb) =>
        eb.or([
          eb("b.created_at", "<", created_at),
          eb.and([eb("b.created_at", "=", created_at), eb("b.id", "<", id)]),
        ]),
      );
    }
    const page = await q.orderBy("b.created_at", "desc").orderBy("b.id", "desc").limit(batch).execute();
    if (!page.length) return;
    yield* await billsWithFigures(db, ctx, f, page);
    if (page.length < batch) return;
    const last = page[page.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
  }
}

/** The bare aggregate the filter's speed is compared with (bench/containers.ts). */
export function bareBillAggregate(db: Executor, organizationId: number) {
  return sql<{ bill_of_lading_id: number; log_count: number; volume: number }>`
    SELECT c.bill_of_lading_id, SUM(cm.logs_count) AS log_count, SUM(cm.volume) AS volume
    FROM container_measurements cm JOIN containers c ON c.id = cm.container_id
    WHERE cm.organization_id = ${organizationId} AND cm.deleted_at IS NULL
    GROUP BY c.bill_of_lading_id`.execute(db);
}
