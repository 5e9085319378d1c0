import type { CustomFieldDataType, CustomFieldSource } from "#db/schema";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";

// Custom fields of the organisation and their option values (dropdown choices, ordered by rank).
type Ctx = Pick<AuthContext, "organizationId">;

export async function listCustomFields(db: DB, ctx: Ctx, opts: { ids?: number[] } = {}) {
  let q = db.selectFrom("custom_fields").selectAll().where("organization_id", "=", ctx.organizationId);
  if (opts.ids) q = q.where("id", "in", opts.ids.length ? opts.ids : [0]);
  const fields = await q.orderBy("source_key").orderBy("name").execute();
  const values = fields.length
    ? await db
        .selectFrom("custom_field_values")
        .select(["id", "custom_field_id", "value", "rank", "archived"])
        .where("organization_id", "=", ctx.organizationId)
        .where(
          "custom_field_id",
          "in",
          fields.map((f) => f.id),
        )
        .orderBy("rank")
        .orderBy("id")
        .execute()
    : [];
  return fields.map((f) => ({
    id: f.id,
    name: f.name,
    key: f.key,
    source_key: f.source_key,
    data_type: f.data_type,
    searchable: f.searchable,
    required: f.required,
    archived: f.archived,
    values: values.filter((v) => v.custom_field_id === f.id).map(({ custom_field_id: _, ...v }) => v),
  }));
}

export async function getCustomField(db: DB, ctx: Ctx, id: number) {
  return (await listCustomFields(db, ctx, { ids: [id] }))[0];
}

export class DuplicateKeyError extends Error {}

export async function createCustomField(
  db: DB,
  ctx: Ctx,
  input: {
    name: string;
    key: string;
    source_key: CustomFieldSource;
    data_type: CustomFieldDataType;
    searchable: boolean;
    required: boolean;
  },
) {
  const dup = await db
    .selectFrom("custom_fields")
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", input.source_key)
    .where("key", "=", input.key)
    .executeTakeFirst();
  if (dup) throw new DuplicateKeyError();
  const r = await db
    .insertInto("custom_fields")
    .values({ ...input, organization_id: ctx.organizationId })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function updateCustomField(
  db: DB,
  ctx: Ctx,
  id: number,
  changes: { name?: string; archived?: boolean; searchable?: boolean; required?: boolean },
) {
  if (!(await getCustomField(db, ctx, id))) return false;
  if (Object.keys(changes).length)
    await db
      .updateTable("custom_fields")
      .set(changes)
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
  return true;
}

/** A new value goes last unless a rank is given. */
export async function addCustomFieldValue(db: DB, ctx: Ctx, fieldId: number, input: { value: string; rank?: number }) {
  const field = await getCustomField(db, ctx, fieldId);
  if (!field) return null;
  const rank = input.rank ?? (field.values.length ? Math.max(...field.values.map((v) => v.rank)) + 1 : 0);
  const r = await db
    .insertInto("custom_field_values")
    .values({ organization_id: ctx.organizationId, custom_field_id: fieldId, value: input.value, rank })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function getCustomFieldValue(db: DB, ctx: Ctx, id: number) {
  return db
    .selectFrom("custom_field_values")
    .select(["id", "custom_field_id", "value", "rank", "archived"])
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

export async function updateCustomFieldValue(
  db: DB,
  ctx: Ctx,
  id: number,
  changes: { value?: string; rank?: number; archived?: boolean },
) {
  if (!(await getCustomFieldValue(db, ctx, id))) return false;
  if (Object.keys(changes).length)
    await db
      .updateTable("custom_field_values")
      .set(changes)
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
  return true;
}
