import type { DB } from "~/utils/db.server";

/** Organisations the user belongs to: any role in them makes a member. */
export async function listOrganizationsOfUser(db: DB, userId: number) {
  return db
    .selectFrom("organizations")
    .select(["id", "name"])
    .where("id", "in", (eb) => eb.selectFrom("roles").select("organization_id").where("user_id", "=", userId))
    .orderBy("name")
    .orderBy("id")
    .execute();
}

export async function getOrganization(db: DB, id: number) {
  return db.selectFrom("organizations").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function setRecentOrganization(db: DB, userId: number, organizationId: number) {
  await db
    .updateTable("users")
    .set({ recent_organization_id: organizationId, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}
