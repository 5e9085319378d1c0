import { sql } from "kysely";
import type { Organization, Role, User } from "#db/schema";
import type { DB } from "~/utils/db.server";

// Every signed-in request needs the user, their organisations, the current one and their roles
// in it. Read in one round trip (it was five queries, which made the dashboard's calls 2-4x
// their bare SQL): the current organisation is joined, the lists come back as JSON arrays.

const ORGANIZATION_COLUMNS = [
  "id",
  "name",
  "registration_code",
  "country",
  "city",
  "address",
  "postal_code",
  "vat_code",
  "invoice_email",
  "default_storage_id",
  "currency",
  "contact_person",
  "phone",
  "token",
  "features",
  "device_activation_code",
  "cmpc_enabled",
  "vmu_enabled",
  "created_at",
  "updated_at",
] as const satisfies ReadonlyArray<keyof Organization>;

export interface SignedInRows {
  user: User;
  organizations: Array<{ id: number; name: string }>;
  organization: Organization | null;
  roles: Role[];
}

const parseJsonList = <T>(value: unknown): T[] =>
  value === null || value === undefined ? [] : typeof value === "string" ? (JSON.parse(value) ?? []) : (value as T[]);

export async function loadSignedInRows(db: DB, userId: number): Promise<SignedInRows | null> {
  const memberOf = sql`(select r.organization_id from roles r where r.user_id = u.id)`;
  // The user's recent organisation while they still belong to it, else the first by name.
  const currentId = sql`coalesce(
    (select o.id from organizations o where o.id = u.recent_organization_id and o.id in ${memberOf}),
    (select o.id from organizations o where o.id in ${memberOf} order by o.name, o.id limit 1)
  )`;
  const row = (await db
    .selectFrom("users as u")
    .leftJoin("organizations as co", (join) => join.on(sql<boolean>`co.id = ${currentId}`))
    .selectAll("u")
    .select(ORGANIZATION_COLUMNS.map((c) => sql.ref(`co.${c}`).as(`org__${c}`)))
    .select(
      sql<string | null>`(select json_arrayagg(json_object('id', o.id, 'name', o.name) order by o.name, o.id)
        from organizations o where o.id in ${memberOf})`.as("org__list"),
    )
    .select(
      sql<string | null>`(select json_arrayagg(json_object('id', r.id, 'user_id', r.user_id,
          'organization_id', r.organization_id, 'name', r.name, 'assignable_type', r.assignable_type,
          'assignable_id', r.assignable_id, 'created_at', r.created_at) order by r.id)
        from roles r where r.user_id = u.id and r.organization_id = co.id)`.as("org__roles"),
    )
    .where("u.id", "=", userId)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!row) return null;
  const user: Record<string, unknown> = {};
  const organization: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (!key.startsWith("org__")) user[key] = value;
    else if (key !== "org__list" && key !== "org__roles") organization[key.slice(5)] = value;
  }
  if (typeof organization.features === "string") organization.features = JSON.parse(organization.features);
  const roles = parseJsonList<Role & { created_at: string }>(row.org__roles).map((r) => ({
    ...r,
    created_at: new Date(`${String(r.created_at).replace(" ", "T")}Z`),
  }));
  return {
    user: user as unknown as User,
    organizations: parseJsonList(row.org__list),
    organization: organization.id === null || organization.id === undefined ? null : (organization as Organization),
    roles: roles as Role[],
  };
}
