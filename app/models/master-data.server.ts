import type { AssortmentsTable } from "#db/schema";
import type { PriceVolumeUnit } from "~/domain/units";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { lookupName } from "~/utils/lookup-name";
import { rangesConflict } from "~/utils/schemas/master-data";
import type { TFunction } from "i18next";
import type { Selectable } from "kysely";

// Timber master data. Built-in rows (organization_id NULL) are shared and read-only; an
// organisation changes only its own rows, and another organisation's row is "not_found".
// DELETE archives rows that measurements may still point at (species, qualities, assortments,
// culls, diameter profiles); lumber products are removed.
type Ctx = Pick<AuthContext, "organizationId">;
export type Outcome = "ok" | "not_found" | "built_in";

type Named = "wood_types" | "wood_qualities";

export async function ownership(
  db: DB,
  ctx: Ctx,
  table: Named | "culls" | "assortments",
  id: number,
): Promise<Outcome> {
  const row = await db.selectFrom(table).select("organization_id").where("id", "=", id).executeTakeFirst();
  if (!row) return "not_found";
  if (row.organization_id === null) return "built_in";
  return row.organization_id === ctx.organizationId ? "ok" : "not_found";
}

export async function listNamed(db: DB, ctx: Ctx, table: Named, t?: TFunction) {
  const rows = await db
    .selectFrom(table)
    .select(["id", "name", "archived", "organization_id"])
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .execute();
  // In id order as the foundation's lookups answer them; the /timber lists sort by name.
  return rows.sort((a, b) => a.id - b.id).map((r) => (t ? { ...r, name: lookupName(t, table, r) } : r));
}

export async function getNamed(db: DB, ctx: Ctx, table: Named, id: number) {
  return db
    .selectFrom(table)
    .select(["id", "name", "archived", "organization_id"])
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

export async function createNamed(db: DB, ctx: Ctx, table: Named, name: string) {
  const r = await db.insertInto(table).values({ organization_id: ctx.organizationId, name }).executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function updateNamed(
  db: DB,
  ctx: Ctx,
  table: Named,
  id: number,
  changes: { name?: string; archived?: boolean },
): Promise<Outcome> {
  const own = await ownership(db, ctx, table, id);
  if (own !== "ok") return own;
  if (Object.keys(changes).length) await db.updateTable(table).set(changes).where("id", "=", id).execute();
  return "ok";
}

// Culls

export async function listCulls(db: DB, ctx: Ctx) {
  return db
    .selectFrom("culls")
    .select(["id", "reason", "min", "max", "archived", "organization_id"])
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .orderBy("reason")
    .orderBy("id")
    .execute();
}

export async function createCull(
  db: DB,
  ctx: Ctx,
  input: { reason: string; min?: number | null; max?: number | null },
) {
  const r = await db
    .insertInto("culls")
    .values({
      organization_id: ctx.organizationId,
      reason: input.reason,
      min: input.min ?? null,
      max: input.max ?? null,
    })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function updateCull(
  db: DB,
  ctx: Ctx,
  id: number,
  changes: { reason?: string; min?: number | null; max?: number | null; archived?: boolean },
): Promise<Outcome> {
  const own = await ownership(db, ctx, "culls", id);
  if (own !== "ok") return own;
  if (Object.keys(changes).length) await db.updateTable("culls").set(changes).where("id", "=", id).execute();
  return "ok";
}

// Assortments (the spec's wood characteristics); API min/max are the diameter bounds in cm.

export async function listAssortmentRows(db: DB, ctx: Ctx) {
  const rows = await db
    .selectFrom("assortments")
    .selectAll()
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map(serializeAssortment);
}

export function serializeAssortment(a: Selectable<AssortmentsTable>) {
  return {
    id: a.id,
    name: a.name,
    archived: a.archived,
    organization_id: a.organization_id,
    wood_type_id: a.wood_type_id,
    wood_quality_id: a.wood_quality_id,
    log_length: a.log_length,
    weight_density: a.weight_density,
    min: a.min_diameter,
    max: a.max_diameter,
    diameter_percentage: a.diameter_percentage,
    price_cents: a.price_cents,
    price_per_log_cents: a.price_per_log_cents,
    volume_unit: a.volume_unit,
    custom_fields: a.custom_fields ?? {},
  };
}

export async function getAssortment(db: DB, ctx: Ctx, id: number) {
  const row = await db
    .selectFrom("assortments")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  return row ? serializeAssortment(row) : undefined;
}

type AssortmentInput = {
  name?: string;
  wood_type_id?: number;
  wood_quality_id?: number | null;
  min?: number | null;
  max?: number | null;
  log_length?: number | null;
  weight_density?: number | null;
  diameter_percentage?: number | null;
  price_cents?: number | null;
  price_per_log_cents?: number | null;
  volume_unit?: PriceVolumeUnit;
  custom_fields?: Record<string, unknown>;
  archived?: boolean;
};

function assortmentColumns(input: AssortmentInput) {
  const { min, max, custom_fields, ...rest } = input;
  return {
    ...rest,
    ...(min !== undefined ? { min_diameter: min } : {}),
    ...(max !== undefined ? { max_diameter: max } : {}),
    ...(custom_fields !== undefined ? { custom_fields: JSON.stringify(custom_fields) } : {}),
  };
}

/** Species and quality must be built-in or this organisation's; "lookup" names the bad field. */
async function checkLookups(db: DB, ctx: Ctx, input: AssortmentInput): Promise<string | null> {
  for (const [field, table] of [
    ["wood_type_id", "wood_types"],
    ["wood_quality_id", "wood_qualities"],
  ] as const) {
    const id = input[field];
    if (id == null) continue;
    const row = await db.selectFrom(table).select("organization_id").where("id", "=", id).executeTakeFirst();
    if (!row || (row.organization_id !== null && row.organization_id !== ctx.organizationId)) return field;
  }
  return null;
}

export async function createAssortment(
  db: DB,
  ctx: Ctx,
  input: AssortmentInput & { name: string; wood_type_id: number },
) {
  const bad = await checkLookups(db, ctx, input);
  if (bad) return { error: bad };
  const r = await db
    .insertInto("assortments")
    .values({ organization_id: ctx.organizationId, custom_fields: "{}", ...assortmentColumns(input) } as never)
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId) };
}

export async function updateAssortment(
  db: DB,
  ctx: Ctx,
  id: number,
  input: AssortmentInput,
): Promise<Outcome | { error: string }> {
  const own = await ownership(db, ctx, "assortments", id);
  if (own !== "ok") return own;
  const bad = await checkLookups(db, ctx, input);
  if (bad) return { error: bad };
  const cols = assortmentColumns(input);
  if (Object.keys(cols).length)
    await db
      .updateTable("assortments")
      .set(cols as never)
      .where("id", "=", id)
      .execute();
  return "ok";
}

// Diameter profiles

export async function listDiameterProfiles(db: DB, ctx: Ctx) {
  const profiles = await db
    .selectFrom("diameter_profiles")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("name")
    .orderBy("id")
    .execute();
  const links = profiles.length
    ? await db
        .selectFrom("diameter_profile_assortments")
        .select(["diameter_profile_id", "assortment_id"])
        .where(
          "diameter_profile_id",
          "in",
          profiles.map((p) => p.id),
        )
        .execute()
    : [];
  return profiles.map((p) => ({
    id: p.id,
    name: p.name,
    archived: p.archived,
    default_cull_id: p.default_cull_id,
    wood_characteristic_ids: links.filter((l) => l.diameter_profile_id === p.id).map((l) => l.assortment_id),
  }));
}

export async function getDiameterProfile(db: DB, ctx: Ctx, id: number) {
  return (await listDiameterProfiles(db, ctx)).find((p) => p.id === id);
}

/** The chosen assortments: visible to the organisation, both bounds set, no overlaps. Returns the error key or null. */
async function checkProfile(
  db: DB,
  ctx: Ctx,
  input: { default_cull_id?: number | null; wood_characteristic_ids?: number[] },
) {
  if (input.default_cull_id != null) {
    const cull = await db
      .selectFrom("culls")
      .select("organization_id")
      .where("id", "=", input.default_cull_id)
      .executeTakeFirst();
    if (!cull || (cull.organization_id !== null && cull.organization_id !== ctx.organizationId))
      return { field: "default_cull_id", message: "accounts:timber.cullInvalid" };
  }
  if (input.wood_characteristic_ids) {
    const ids = [...new Set(input.wood_characteristic_ids)];
    const rows = await db
      .selectFrom("assortments")
      .select(["id", "min_diameter as min", "max_diameter as max"])
      .where("id", "in", ids)
      .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
      .execute();
    if (rows.length !== ids.length)
      return { field: "wood_characteristic_ids", message: "accounts:timber.assortmentInvalid" };
    for (let i = 0; i < rows.length; i++) {
      if (rows[i].min == null || rows[i].max == null)
        return { field: "wood_characteristic_ids", message: "accounts:timber.boundsRequired" };
      for (let j = i + 1; j < rows.length; j++)
        if (rangesConflict(rows[i], rows[j]))
          return { field: "wood_characteristic_ids", message: "accounts:timber.overlap" };
    }
  }
  return null;
}

export async function createDiameterProfile(
  db: DB,
  ctx: Ctx,
  input: { name: string; default_cull_id?: number | null; wood_characteristic_ids: number[] },
) {
  const problem = await checkProfile(db, ctx, input);
  if (problem) return { problem };
  const id = await db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("diameter_profiles")
      .values({ organization_id: ctx.organizationId, name: input.name, default_cull_id: input.default_cull_id ?? null })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    await trx
      .insertInto("diameter_profile_assortments")
      .values([...new Set(input.wood_characteristic_ids)].map((a) => ({ diameter_profile_id: id, assortment_id: a })))
      .execute();
    return id;
  });
  return { id };
}

export async function updateDiameterProfile(
  db: DB,
  ctx: Ctx,
  id: number,
  input: { name?: string; default_cull_id?: number | null; wood_characteristic_ids?: number[]; archived?: boolean },
) {
  if (!(await getDiameterProfile(db, ctx, id))) return { outcome: "not_found" as const };
  const problem = await checkProfile(db, ctx, input);
  if (problem) return { problem };
  const { wood_characteristic_ids, ...cols } = input;
  await db.transaction().execute(async (trx) => {
    if (Object.keys(cols).length) await trx.updateTable("diameter_profiles").set(cols).where("id", "=", id).execute();
    if (wood_characteristic_ids) {
      await trx.deleteFrom("diameter_profile_assortments").where("diameter_profile_id", "=", id).execute();
      await trx
        .insertInto("diameter_profile_assortments")
        .values([...new Set(wood_characteristic_ids)].map((a) => ({ diameter_profile_id: id, assortment_id: a })))
        .execute();
    }
  });
  return { outcome: "ok" as const };
}

// Lumber products

export async function listLumberProducts(db: DB, ctx: Ctx) {
  return db
    .selectFrom("lumber_products")
    .select(["id", "name", "plank_length", "plank_width", "plank_height"])
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("name")
    .orderBy("id")
    .execute();
}

export async function getLumberProduct(db: DB, ctx: Ctx, id: number) {
  return db
    .selectFrom("lumber_products")
    .select(["id", "name", "plank_length", "plank_width", "plank_height"])
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

export async function createLumberProduct(
  db: DB,
  ctx: Ctx,
  input: { name: string; plank_length: number; plank_width: number; plank_height: number },
) {
  const r = await db
    .insertInto("lumber_products")
    .values({ ...input, organization_id: ctx.organizationId })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function updateLumberProduct(
  db: DB,
  ctx: Ctx,
  id: number,
  changes: Partial<{ name: string; plank_length: number; plank_width: number; plank_height: number }>,
) {
  if (!(await getLumberProduct(db, ctx, id))) return false;
  if (Object.keys(changes).length) await db.updateTable("lumber_products").set(changes).where("id", "=", id).execute();
  return true;
}

export async function deleteLumberProduct(db: DB, ctx: Ctx, id: number) {
  if (!(await getLumberProduct(db, ctx, id))) return false;
  await db.deleteFrom("lumber_products").where("id", "=", id).execute();
  return true;
}
