import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";

// The rows of the container report types (docs/decisions/026-exports-and-labels.md, "Container
// exports"): the logs of container measurements (container_log_by_log_excel) and a bill's
// volumes by assortment (bill_of_lading_invoice_excel). Every query is scoped by the
// organisation; a deleted measurement and a deleted log count for nothing.

type Ctx = Pick<AuthContext, "organizationId">;

/** Which container measurements a log-by-log export takes: named ones, or a container's. */
export type ContainerLogSelection = { measurement_ids?: number[]; container_id?: number };

function liveMeasurements(db: DB, ctx: Ctx) {
  return db
    .selectFrom("container_measurements as m")
    .where("m.organization_id", "=", ctx.organizationId)
    .where("m.deleted_at", "is", null);
}

function selectedMeasurements(db: DB, ctx: Ctx, selection: ContainerLogSelection) {
  let q = liveMeasurements(db, ctx);
  if (selection.container_id !== undefined) q = q.where("m.container_id", "=", selection.container_id);
  if (selection.measurement_ids)
    q = q.where("m.id", "in", selection.measurement_ids.length ? selection.measurement_ids : [0]);
  return q;
}

/** The ids among `ids` that are live container measurements of the organisation. */
export async function containerMeasurementPresence(db: DB, ctx: Ctx, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await liveMeasurements(db, ctx)
    .select("m.id")
    .where("m.id", "in", [...new Set(ids)])
    .execute();
  return rows.map((r) => r.id);
}

/** How many measurements the selection keeps and how many kept logs they have. */
export async function countContainerLogSelection(db: DB, ctx: Ctx, selection: ContainerLogSelection) {
  const row = await selectedMeasurements(db, ctx, selection)
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("m.logs_count").as("logs")])
    .executeTakeFirstOrThrow();
  return { measurements: Number(row.n), logs: Number(row.logs ?? 0) };
}

/**
 * Every kept log of the selected measurements with its container, bill and measurement, in
 * order of container name, measurement and log, streamed from MySQL.
 */
export function streamContainerLogs(db: DB, ctx: Ctx, selection: ContainerLogSelection) {
  return selectedMeasurements(db, ctx, selection)
    .innerJoin("container_measurement_logs as l", "l.container_measurement_id", "m.id")
    .leftJoin("containers as c", (j) =>
      j.onRef("c.id", "=", "m.container_id").on("c.organization_id", "=", ctx.organizationId),
    )
    .leftJoin("bill_of_ladings as b", (j) =>
      j.onRef("b.id", "=", "c.bill_of_lading_id").on("b.organization_id", "=", ctx.organizationId),
    )
    .where("l.is_deleted", "=", false)
    .select([
      "c.name as container_name",
      "b.name as bill_name",
      "m.id as measurement_id",
      "m.log_length",
      "l.d",
      "l.jas_d",
      "l.v",
    ])
    .orderBy("c.name")
    .orderBy("m.container_id")
    .orderBy("m.id")
    .orderBy("l.id")
    .stream(1000);
}

/**
 * A bill's live container measurements' log count and JAS volume, grouped by the measurement's
 * own assortment (null: none), for the invoice (app/domain/container-invoice.ts prices them).
 */
export async function billVolumesByAssortment(db: DB, ctx: Ctx, billId: number) {
  const rows = await liveMeasurements(db, ctx)
    .innerJoin("containers as c", "c.id", "m.container_id")
    .where("c.organization_id", "=", ctx.organizationId)
    .where("c.bill_of_lading_id", "=", billId)
    .select((eb) => [
      "m.assortment_id",
      eb.fn.countAll<number>().as("measurements"),
      eb.fn.sum<number>("m.logs_count").as("log_count"),
      eb.fn.sum<number>("m.volume").as("volume"),
    ])
    .groupBy("m.assortment_id")
    .execute();
  return rows.map((r) => ({
    assortmentId: r.assortment_id,
    measurements: Number(r.measurements),
    logCount: Number(r.log_count ?? 0),
    volumeM3: Number(r.volume ?? 0),
  }));
}

/** The bill as the invoice heads it, with its contract's name; undefined when not the organisation's. */
export async function billForInvoice(db: DB, ctx: Ctx, billId: number) {
  return db
    .selectFrom("bill_of_ladings as b")
    .leftJoin("container_contracts as k", (j) =>
      j.onRef("k.id", "=", "b.contract_id").on("k.organization_id", "=", ctx.organizationId),
    )
    .select(["b.id", "b.name", "b.wood_characteristic_id", "k.name as contract_name"])
    .where("b.id", "=", billId)
    .where("b.organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

/** The assortments an invoice may price with: the organisation's and the shared ones, by name. */
export async function invoiceAssortments(db: DB, ctx: Ctx) {
  return db
    .selectFrom("assortments")
    .select(["id", "name", "price_cents", "price_per_log_cents", "volume_unit"])
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .orderBy("name")
    .orderBy("id")
    .execute();
}

/** The organisation's invoicing details (currency, VAT code) for the invoice's head. */
export async function invoiceOrganization(db: DB, ctx: Ctx) {
  return db
    .selectFrom("organizations")
    .select(["name", "currency", "vat_code", "registration_code", "address"])
    .where("id", "=", ctx.organizationId)
    .executeTakeFirstOrThrow();
}
