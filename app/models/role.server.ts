import type { Role, RoleName } from "#db/schema";
import type { DB } from "~/utils/db.server";

export const ROLE_RANK: Record<RoleName, number> = { viewer: 0, measurer: 1, admin: 2, super_admin: 3 };
export const EDITING_ROLES: RoleName[] = ["measurer", "admin", "super_admin"];

export async function listRolesInOrganization(db: DB, userId: number, organizationId: number) {
  return db
    .selectFrom("roles")
    .selectAll()
    .where("user_id", "=", userId)
    .where("organization_id", "=", organizationId)
    .orderBy("id")
    .execute();
}

/** The spec: an organisation admin holds a role whose name contains "admin", on the Organization itself. */
export function isOrganizationAdmin(
  roles: Pick<Role, "name" | "assignable_type" | "assignable_id">[],
  organizationId: number,
) {
  return roles.some(
    (r) => r.name.includes("admin") && r.assignable_type === "Organization" && r.assignable_id === organizationId,
  );
}

/**
 * Whether the roles allow one of `names` on a storage: a role on the organisation, on the storage
 * itself, or on the storage's group.
 */
export function hasRoleOnStorage(
  roles: Pick<Role, "name" | "assignable_type" | "assignable_id">[],
  names: RoleName[],
  target: { organizationId: number; storageId: number; storageGroupId: number | null },
) {
  return roles.some((r) => {
    if (!names.includes(r.name)) return false;
    if (r.assignable_type === "Organization") return r.assignable_id === target.organizationId;
    if (r.assignable_type === "Storage") return r.assignable_id === target.storageId;
    return target.storageGroupId !== null && r.assignable_id === target.storageGroupId;
  });
}
