import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { translateLookups } from "~/utils/lookup-name";
import type { TFunction } from "i18next";

// Lookups shared by many screens: built-in rows (organization_id NULL) and the organisation's own.
type Ctx = Pick<AuthContext, "organizationId">;

async function listNamed(db: DB, table: "wood_types" | "wood_qualities", ctx: Ctx, t: TFunction) {
  const rows = await db
    .selectFrom(table)
    .select(["id", "name", "archived", "organization_id"])
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .orderBy("id")
    .execute();
  return translateLookups(t, table, rows);
}

export const listWoodTypes = (db: DB, ctx: Ctx, t: TFunction) => listNamed(db, "wood_types", ctx, t);
export const listWoodQualities = (db: DB, ctx: Ctx, t: TFunction) => listNamed(db, "wood_qualities", ctx, t);

export async function listAssortments(db: DB, ctx: Ctx) {
  return db
    .selectFrom("assortments")
    .selectAll()
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .orderBy("name")
    .orderBy("id")
    .execute();
}

export async function listStorages(db: DB, ctx: Ctx) {
  return db
    .selectFrom("storages")
    .select(["id", "name", "storage_state_id", "latitude", "longitude", "updated_at"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .orderBy("name")
    .execute();
}

export async function listVolumeFormulas(db: DB) {
  return db.selectFrom("volume_formulas").selectAll().orderBy("position").execute();
}
