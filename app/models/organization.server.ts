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

/** PATCH /organizations/{id}: only the caller's own organisation; the default storage must be one of its storages. */
export async function updateOrganization(
  db: DB,
  ctx: { organizationId: number },
  id: number,
  changes: Partial<
    Record<
      "name" | "address" | "city" | "postal_code" | "vat_code" | "invoice_email" | "contact_person" | "phone",
      string | null
    >
  > & { default_storage_id?: number | null },
) {
  if (id !== ctx.organizationId) return "not_found" as const;
  if (changes.default_storage_id) {
    const storage = await db
      .selectFrom("storages")
      .select("id")
      .where("id", "=", changes.default_storage_id)
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!storage) return "invalid_storage" as const;
  }
  const { name, ...rest } = changes;
  const set = { ...rest, ...(name ? { name } : {}) };
  if (Object.keys(set).length)
    await db
      .updateTable("organizations")
      .set({ ...set, updated_at: new Date() })
      .where("id", "=", id)
      .execute();
  return "ok" as const;
}

export function serializeOrganization(o: NonNullable<Awaited<ReturnType<typeof getOrganization>>>) {
  return {
    id: o.id,
    name: o.name,
    registration_code: o.registration_code,
    country: o.country,
    city: o.city,
    address: o.address,
    postal_code: o.postal_code,
    vat_code: o.vat_code,
    invoice_email: o.invoice_email,
    default_storage_id: o.default_storage_id,
    currency: o.currency,
    contact_person: o.contact_person,
    phone: o.phone,
  };
}
