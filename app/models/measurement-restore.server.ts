import { actorOf, withHistory } from "~/models/measurement-history.server";
import {
  fail,
  MEASUREMENT_KINDS,
  NotFoundError,
  requireEditor,
  type MeasurementKind,
} from "~/models/measurement-kind.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";

// Restoring a deleted measurement of any kind (docs/decisions/024-trust.md): back into the storage
// it was deleted from, in one transaction with its history line. Refused (422, a sentence the
// deleted page shows) when that storage is gone, or when an inventory of it was confirmed after
// the deletion (the stock-take counted the storage without it; putting it back would change a
// confirmed figure). The caller must be allowed to edit in the storage (403).

export async function restoreMeasurement(
  db: DB,
  ctx: Pick<AuthContext, "roles" | "organizationId" | "userId">,
  kind: MeasurementKind,
  id: number,
) {
  return db.transaction().execute(async (trx) => {
    const m = await trx
      .selectFrom(MEASUREMENT_KINDS[kind].table)
      .select(["id", "storage_id", "deleted_at"])
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is not", null)
      .forUpdate()
      .executeTakeFirst();
    if (!m) throw new NotFoundError();
    const storage = await trx
      .selectFrom("storages")
      .select(["id", "storage_group_id", "deleted_at", "last_inventory_confirmed_at"])
      .where("id", "=", m.storage_id)
      .where("organization_id", "=", ctx.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!storage || storage.deleted_at) fail("measurement_id", "trust:restore.storageGone");
    requireEditor(ctx, storage);
    if (storage.last_inventory_confirmed_at && m.deleted_at && storage.last_inventory_confirmed_at > m.deleted_at)
      fail("measurement_id", "trust:restore.inventorySince");
    await withHistory(trx, ctx, actorOf(ctx), kind, "restored", [id], { children: false }, () =>
      trx
        .updateTable(MEASUREMENT_KINDS[kind].table)
        .set({ deleted_at: null, updated_at: new Date() })
        .where("id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .execute(),
    );
    return { id, storage_id: storage.id };
  });
}
