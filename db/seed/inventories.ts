import type { DB } from "~/utils/db.server";

// The demo organisation's inventories, so /inventories shows real numbers at once: every storage
// with measurements was counted and confirmed six weeks ago (its older measurements are locked,
// as confirmation leaves them), and the first one has an open inventory of what came since, ready
// to confirm. Run again, it adds nothing.

const WEEKS_AGO = 6;

export async function seedInventories(db: DB, organizationId: number, opts: { log?: (s: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  const existing = await db
    .selectFrom("inventories")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (existing) return 0;
  const admin = await db
    .selectFrom("roles")
    .select("user_id")
    .where("organization_id", "=", organizationId)
    .where("name", "=", "admin")
    .orderBy("user_id")
    .executeTakeFirst();
  const confirmedAt = new Date(Date.now() - WEEKS_AGO * 7 * 24 * 3600 * 1000);
  const storages = await db
    .selectFrom("storages")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("measurements as m")
          .select("m.id")
          .whereRef("m.storage_id", "=", "storages.id")
          .where("m.deleted_at", "is", null)
          .where("m.taken_at", "<=", confirmedAt),
      ),
    )
    .orderBy("id")
    .execute();
  let made = 0;
  for (const [n, s] of storages.entries()) {
    await db.transaction().execute(async (trx) => {
      const r = await trx
        .insertInto("inventories")
        .values({
          organization_id: organizationId,
          storage_id: s.id,
          created_by: admin?.user_id ?? null,
          created_at: confirmedAt,
          confirmed_at: confirmedAt,
          confirmed_by: admin?.user_id ?? null,
        })
        .executeTakeFirstOrThrow();
      const id = Number(r.insertId);
      for (const table of ["measurements", "lumber_measurements"] as const) {
        await trx
          .updateTable(table)
          .set({ inventory_id: id })
          .where("organization_id", "=", organizationId)
          .where("storage_id", "=", s.id)
          .where("deleted_at", "is", null)
          .where("inventory_id", "is", null)
          .where("taken_at", "<=", confirmedAt)
          .execute();
      }
      await trx
        .updateTable("storages")
        .set({ last_inventory_confirmed_at: confirmedAt })
        .where("id", "=", s.id)
        .execute();
      made++;
      if (n === 0) {
        await trx
          .insertInto("inventories")
          .values({
            organization_id: organizationId,
            storage_id: s.id,
            previous_inventory_id: id,
            created_by: admin?.user_id ?? null,
            open_storage_id: s.id,
          })
          .execute();
        made++;
      }
    });
  }
  log(`demo inventories: ${made} (${storages.length} confirmed ${WEEKS_AGO} weeks ago, one open)`);
  return made;
}
