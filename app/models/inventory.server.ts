import { sql, type Transaction } from "kysely";
import type { Database } from "#db/schema";
import { inventoryFigures, type InventoryFigures, type InventoryRow } from "~/domain/inventory";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/utils/errors";
import type { InventoryFilter } from "~/utils/schemas/inventory";
import { zonedLocalToDate } from "~/utils/timber-dates";
import { actorOf, withHistory } from "./measurement-history.server";
import { canEdit } from "./measurement-kind.server";

// Inventories (docs/decisions/014-inventories.md): a stock-take of one storage. Open, it counts
// the storage's live timber and lumber measurements that no inventory holds yet (taken until
// now); confirming it, in one transaction, writes its id into those measurements (which locks
// them), stamps confirmed_at and the storage's last_inventory_confirmed_at. Its figures come from
// inventoryFigures (app/domain/inventory.ts) over the rows of `figureRows`, the one query, for the
// page, the API and inventories_excel alike.

type Ctx = Pick<AuthContext, "organizationId">;
type EditCtx = Pick<AuthContext, "organizationId" | "roles" | "userId">;
type Executor = DB | Transaction<Database>;

export interface InventoryHead {
  id: number;
  storage_id: number;
  storage_name: string;
  previous_inventory_id: number | null;
  created_by: number | null;
  creator_name: string | null;
  created_at: Date;
  confirmed_at: Date | null;
}

export type InventoryWithFigures = InventoryHead & InventoryFigures;

export const INVENTORIES_PER_PAGE = 20;

function heads(db: Executor, ctx: Ctx) {
  return db
    .selectFrom("inventories as i")
    .innerJoin("storages as s", (j) => j.onRef("s.id", "=", "i.storage_id").on("s.deleted_at", "is", null))
    .leftJoin("users as u", "u.id", "i.created_by")
    .select([
      "i.id",
      "i.storage_id",
      "s.name as storage_name",
      "i.previous_inventory_id",
      "i.created_by",
      sql<string | null>`COALESCE(u.name, u.email)`.as("creator_name"),
      "i.created_at",
      "i.confirmed_at",
    ])
    .where("i.organization_id", "=", ctx.organizationId);
}

/** The first and the last instant of a month "yyyy-MM" on the time zone's wall clock. */
function monthBounds(month: string, timeZone: string) {
  const [y, m] = month.split("-").map(Number);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
  return {
    start: zonedLocalToDate(`${month}-01T00:00`, timeZone)!,
    end: zonedLocalToDate(`${next}-01T00:00`, timeZone)!,
  };
}

/**
 * GET /inventories and the inventories page: newest first, by storage and by the month (in the
 * caller's time zone) they were created in, a page at a time, each with its figures.
 */
export async function listInventories(
  db: DB,
  ctx: Ctx & { user: { time_zone: string } },
  filter: InventoryFilter,
  page = 1,
  perPage = INVENTORIES_PER_PAGE,
) {
  let q = heads(db, ctx);
  if (filter.storage_id) q = q.where("i.storage_id", "=", filter.storage_id);
  if (filter.month) {
    const { start, end } = monthBounds(filter.month, ctx.user.time_zone);
    q = q.where("i.created_at", ">=", start).where("i.created_at", "<", end);
  }
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy("i.created_at", "desc")
    .orderBy("i.id", "desc")
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const totalCount = Number(total.c);
  return {
    inventories: await withFigures(db, ctx, rows),
    meta: {
      page,
      per_page: perPage,
      total_count: totalCount,
      total_pages: Math.max(1, Math.ceil(totalCount / perPage)),
    },
  };
}

/** One inventory of the organisation with its figures (404 for another's). */
export async function getInventory(db: DB, ctx: Ctx, id: number): Promise<InventoryWithFigures> {
  const row = await heads(db, ctx).where("i.id", "=", id).executeTakeFirst();
  if (!row) throw new NotFoundError();
  return (await withFigures(db, ctx, [row]))[0];
}

/** Every inventory of one live storage of the organisation, oldest first (404 for another's storage). */
export async function storageInventories(db: DB, ctx: Ctx, storageId: number): Promise<InventoryWithFigures[]> {
  const storage = await db
    .selectFrom("storages")
    .select("id")
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!storage) throw new NotFoundError();
  const rows = await heads(db, ctx)
    .where("i.storage_id", "=", storageId)
    .orderBy("i.created_at")
    .orderBy("i.id")
    .execute();
  return withFigures(db, ctx, rows);
}

async function withFigures(db: Executor, ctx: Ctx, rows: InventoryHead[]): Promise<InventoryWithFigures[]> {
  const byInventory = new Map<number, InventoryRow[]>(rows.map((r) => [r.id, []]));
  for (const r of await figureRows(
    db,
    ctx,
    rows.map((r) => r.id),
  ))
    byInventory.get(r.inventoryId)?.push(r);
  return rows.map((r) => ({ ...r, ...inventoryFigures(byInventory.get(r.id) ?? []) }));
}

/**
 * The one query of the figures: for each inventory, the measurements it counts ("counted": held
 * by it once confirmed; while open, the storage's live ones no inventory holds, taken until now)
 * and those its previous confirmed inventory holds ("previous"), one row per measurement and
 * item with the volume of the measurement's live logs in that item. Timber items are assortments
 * (a log's own, else its measurement's), lumber items are products.
 */
export async function figureRows(
  db: Executor,
  ctx: Ctx,
  inventoryIds: number[],
): Promise<Array<InventoryRow & { inventoryId: number }>> {
  if (inventoryIds.length === 0) return [];
  const org = ctx.organizationId;
  const ids = sql.join(inventoryIds);
  // "Until now" as the app's clock says, as confirmation stamps it (not the database session's).
  const now = new Date();
  // Confirmed and open inventories are separate branches (an OR in the join would keep MySQL
  // from the inventory_id index and the dashboard's covering index).
  const timberConfirmed = sql`i.confirmed_at IS NOT NULL AND m.inventory_id = i.id`;
  const timberOpen = sql`i.confirmed_at IS NULL AND m.storage_id = i.storage_id AND m.inventory_id IS NULL AND m.taken_at <= ${now}`;
  const lumberConfirmed = sql`i.confirmed_at IS NOT NULL AND lm.inventory_id = i.id`;
  const lumberOpen = sql`i.confirmed_at IS NULL AND lm.storage_id = i.storage_id AND lm.inventory_id IS NULL AND lm.taken_at <= ${now}`;
  const timber = (part: string, on: ReturnType<typeof sql>) => sql`
    SELECT i.id AS inventory_id, ${part} AS part, CONCAT('timber:', m.id) AS measurement_key,
      m.measurement_type_id, m.volume, m.volume_formula AS formula, m.coefficient,
      COALESCE(l.assortment_id, m.assortment_id) AS assortment_id, SUM(l.v) AS log_volume,
      NULL AS product_id
    FROM inventories i
    JOIN measurements m ON m.organization_id = i.organization_id AND m.deleted_at IS NULL AND (${on})
    LEFT JOIN logs l ON l.measurement_id = m.id AND l.organization_id = m.organization_id AND l.is_deleted = 0
    WHERE i.organization_id = ${org} AND i.id IN (${ids})
    GROUP BY i.id, m.id, COALESCE(l.assortment_id, m.assortment_id)`;
  const lumber = (part: string, on: ReturnType<typeof sql>) => sql`
    SELECT i.id AS inventory_id, ${part} AS part, CONCAT('lumber:', lm.id) AS measurement_key,
      lm.measurement_type_id, lm.volume, NULL AS formula, NULL AS coefficient,
      NULL AS assortment_id, NULL AS log_volume, lm.lumber_product_id AS product_id
    FROM inventories i
    JOIN lumber_measurements lm ON lm.organization_id = i.organization_id AND lm.deleted_at IS NULL AND (${on})
    WHERE i.organization_id = ${org} AND i.id IN (${ids})`;
  const result = await sql<{
    inventory_id: number;
    part: "counted" | "previous";
    measurement_key: string;
    measurement_type_id: number;
    volume: number;
    formula: string | null;
    coefficient: number | null;
    assortment_id: number | null;
    log_volume: number | null;
    product_id: number | null;
    item_name: string | null;
  }>`
    SELECT r.*, COALESCE(a.name, p.name) AS item_name FROM (
      ${timber("counted", timberConfirmed)}
      UNION ALL ${timber("counted", timberOpen)}
      UNION ALL ${timber("previous", sql`m.inventory_id = i.previous_inventory_id`)}
      UNION ALL ${lumber("counted", lumberConfirmed)}
      UNION ALL ${lumber("counted", lumberOpen)}
      UNION ALL ${lumber("previous", sql`lm.inventory_id = i.previous_inventory_id`)}
    ) r
    LEFT JOIN assortments a ON a.id = r.assortment_id
    LEFT JOIN lumber_products p ON p.id = r.product_id AND p.organization_id = ${org}`.execute(db);
  return result.rows.map((r) => ({
    inventoryId: Number(r.inventory_id),
    part: r.part,
    measurementKey: r.measurement_key,
    measurementTypeId: Number(r.measurement_type_id),
    volume: Number(r.volume),
    formula: r.formula,
    coefficient: r.coefficient === null ? null : Number(r.coefficient),
    itemKey:
      r.assortment_id !== null
        ? `assortment:${r.assortment_id}`
        : r.product_id !== null
          ? `product:${r.product_id}`
          : null,
    itemName: r.item_name,
    logVolume: r.log_volume === null ? null : Number(r.log_volume),
  }));
}

// ---- create and confirm ----

async function lockedStorage(trx: Transaction<Database>, ctx: Ctx, storageId: number) {
  const storage = await trx
    .selectFrom("storages")
    .selectAll()
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (!storage) throw new NotFoundError();
  return storage;
}

/** Whether the storage has a live measurement no inventory holds (what an inventory would count). */
async function hasUncounted(db: Executor, ctx: Ctx, storageId: number) {
  const [timber, lumber] = await Promise.all(
    (["measurements", "lumber_measurements"] as const).map((table) =>
      db
        .selectFrom(table)
        .select("id")
        .where("organization_id", "=", ctx.organizationId)
        .where("storage_id", "=", storageId)
        .where("deleted_at", "is", null)
        .where("inventory_id", "is", null)
        .where("taken_at", "<=", new Date())
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  return Boolean(timber || lumber);
}

/**
 * POST /inventories: an open inventory of the storage. Another organisation's (or a deleted)
 * storage is 404; every refusal is a 422 on storage_id, all of them at once: the caller may not
 * edit in the storage, an inventory of it is still open, there is nothing to count.
 */
export async function createInventory(db: DB, ctx: EditCtx, storageId: number) {
  return db.transaction().execute(async (trx) => {
    const storage = await lockedStorage(trx, ctx, storageId);
    const errors: string[] = [];
    if (!canEdit(ctx, storage)) errors.push("inventories:errors.cannotEdit");
    const open = await trx
      .selectFrom("inventories")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("open_storage_id", "=", storage.id)
      .executeTakeFirst();
    if (open) errors.push("inventories:errors.openInventory");
    if (!(await hasUncounted(trx, ctx, storage.id))) errors.push("inventories:errors.nothingToCount");
    if (errors.length) throw new ValidationError({ storage_id: errors });
    const previous = await trx
      .selectFrom("inventories")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("storage_id", "=", storage.id)
      .where("confirmed_at", "is not", null)
      .orderBy("confirmed_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    const inserted = await trx
      .insertInto("inventories")
      .values({
        organization_id: ctx.organizationId,
        storage_id: storage.id,
        previous_inventory_id: previous?.id ?? null,
        created_by: ctx.userId,
        open_storage_id: storage.id,
      })
      .executeTakeFirstOrThrow();
    return Number(inserted.insertId);
  });
}

/**
 * POST /inventories/{id}/confirm, one way: 404 for another organisation's, 403 for a caller who
 * may not edit in its storage, 422 when already confirmed. In one transaction it writes its id
 * into every measurement it counts (locking them), stamps confirmed_at and the storage's
 * last_inventory_confirmed_at.
 */
export async function confirmInventory(db: DB, ctx: EditCtx, id: number) {
  return db.transaction().execute(async (trx) => {
    const inventory = await trx
      .selectFrom("inventories")
      .selectAll()
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!inventory) throw new NotFoundError();
    const storage = await lockedStorage(trx, ctx, inventory.storage_id);
    if (!canEdit(ctx, storage)) throw new ForbiddenError();
    if (inventory.confirmed_at) throw new ValidationError({ _: ["inventories:errors.alreadyConfirmed"] });
    const now = new Date();
    const counted = { timber: 0, lumber: 0 };
    for (const [kind, table] of [
      ["timber", "measurements"],
      ["lumber", "lumber_measurements"],
    ] as const) {
      // Each measurement locked is a line of its history (docs/decisions/024-trust.md).
      const ids = (
        await trx
          .selectFrom(table)
          .select("id")
          .where("organization_id", "=", ctx.organizationId)
          .where("storage_id", "=", storage.id)
          .where("deleted_at", "is", null)
          .where("inventory_id", "is", null)
          .where("taken_at", "<=", now)
          .forUpdate()
          .execute()
      ).map((m) => m.id);
      if (ids.length)
        await withHistory(trx, ctx, actorOf(ctx), kind, "locked", ids, { children: false }, () =>
          trx
            .updateTable(table)
            .set({ inventory_id: inventory.id })
            .where("organization_id", "=", ctx.organizationId)
            .where("id", "in", ids)
            .execute(),
        );
      counted[kind] = ids.length;
    }
    await trx
      .updateTable("inventories")
      .set({ confirmed_at: now, confirmed_by: ctx.userId, open_storage_id: null })
      .where("id", "=", inventory.id)
      .execute();
    await trx.updateTable("storages").set({ last_inventory_confirmed_at: now }).where("id", "=", storage.id).execute();
    return counted;
  });
}

/** The inventory's storage, to word its confirmation step (404 for another organisation's). */
export async function inventoryStorageName(db: DB, ctx: Ctx, id: number) {
  const row = await heads(db, ctx).where("i.id", "=", id).executeTakeFirst();
  if (!row) throw new NotFoundError();
  return { storageName: row.storage_name, confirmed: row.confirmed_at !== null };
}

const m3 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The API's shape of an inventory: volumes in m³, the spec's summary and list item names. */
export function serializeInventory(i: InventoryWithFigures) {
  return {
    id: i.id,
    storage_id: i.storage_id,
    storage_name: i.storage_name,
    created_by: i.created_by,
    creator_name: i.creator_name,
    created_at: i.created_at.toISOString(),
    confirmed: i.confirmed_at !== null,
    confirmed_at: i.confirmed_at?.toISOString() ?? null,
    previous_inventory_id: i.previous_inventory_id,
    summary: Object.fromEntries(
      Object.entries(i.summary).map(([k, v]) => [k, k === "measurements_count" ? v : m3(v)]),
    ) as InventoryFigures["summary"],
    list_items: i.items.map((item) => ({
      key: item.key,
      name: item.name,
      inventory: m3(item.inventory),
      calculated: m3(item.calculated),
      diff: m3(item.diff),
    })),
  };
}

/** The organisation's live storages, for the list's filter and the rights to create and confirm. */
export async function inventoryStorages(db: DB, ctx: Ctx) {
  return db
    .selectFrom("storages")
    .select(["id", "name", "storage_group_id"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .orderBy("name")
    .execute();
}
