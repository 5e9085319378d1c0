import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ValidationError } from "~/utils/errors";
import { actorOf, withHistory } from "./measurement-history.server";
import { createPublicLink, deletePublicLink } from "./public-link.server";

// Storages (yards, landings, warehouses): create, edit, soft delete. The organisation's default
// storage is never deleted. A new storage is shared at once (its public link exists, ready to be
// copied from the dashboard's row menu); deleting it stops its link.

type Ctx = Pick<AuthContext, "organizationId">;

export const STORAGE_STATES = [1, 2, 3, 4, 5, 6] as const;
/** The spec's badge colours per storage state id. */
export const STORAGE_STATE_BADGE: Record<number, string> = {
  1: "warning",
  2: "none",
  3: "secondary",
  4: "success",
  5: "info",
  6: "danger",
};

/** The organisation's default storage cannot be deleted. */
export class DefaultStorageError extends ValidationError {
  constructor() {
    super({ id: ["timber:errors.defaultStorage"] }, "default_storage");
  }
}

export async function getStorage(db: DB, ctx: Ctx, id: number) {
  const s = await db
    .selectFrom("storages")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!s) return undefined;
  const org = await db
    .selectFrom("organizations")
    .select("default_storage_id")
    .where("id", "=", ctx.organizationId)
    .executeTakeFirstOrThrow();
  return { ...s, is_default: org.default_storage_id === s.id };
}

export async function createStorage(
  db: DB,
  ctx: Ctx & { userId?: number; user?: { time_zone: string } },
  input: { name: string; latitude?: number; longitude?: number; storage_state_id: number },
) {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("storages")
      .values({
        organization_id: ctx.organizationId,
        name: input.name,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        storage_state_id: input.storage_state_id,
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    await createPublicLink(
      trx,
      { organizationId: ctx.organizationId, userId: ctx.userId, timeZone: ctx.user?.time_zone },
      "storage",
      id,
    );
    return id;
  });
}

export async function updateStorage(
  db: DB,
  ctx: Ctx,
  id: number,
  input: { name: string; latitude?: number; longitude?: number; storage_state_id: number },
) {
  const r = await db
    .updateTable("storages")
    .set({
      name: input.name,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      storage_state_id: input.storage_state_id,
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Soft-deletes a storage and its live measurements (they then show on the deleted page).
 * false: not the organisation's storage.
 */
export async function deleteStorage(db: DB, ctx: Ctx, id: number) {
  return db.transaction().execute(async (trx) => {
    const s = await trx
      .selectFrom("storages")
      .select("id")
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!s) return false;
    const org = await trx
      .selectFrom("organizations")
      .select("default_storage_id")
      .where("id", "=", ctx.organizationId)
      .executeTakeFirstOrThrow();
    if (org.default_storage_id === id) throw new DefaultStorageError();
    const now = new Date();
    const live = await trx
      .selectFrom("measurements")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("storage_id", "=", id)
      .where("deleted_at", "is", null)
      .forUpdate()
      .execute();
    const ids = live.map((m) => m.id);
    await withHistory(trx, ctx, actorOf(ctx), "timber", "deleted", ids, { children: false }, async () => {
      if (ids.length)
        await trx
          .updateTable("measurements")
          .set({ deleted_at: now })
          .where("organization_id", "=", ctx.organizationId)
          .where("id", "in", ids)
          .execute();
    });
    await trx.updateTable("storages").set({ deleted_at: now }).where("id", "=", id).execute();
    await deletePublicLink(trx, ctx, "storage", id);
    return true;
  });
}
