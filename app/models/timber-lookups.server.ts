import { sql } from "kysely";
import type { Device } from "#db/schema";
import { deviceStorageIds } from "~/models/device.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { translateLookups } from "~/utils/lookup-name";
import { PHOTO_FORMULAS } from "~/utils/schemas/timber";
import { BUILTIN_WOOD_TYPES } from "../../db/builtin-lookups";
import type { TFunction } from "i18next";

// Master data read by the timber screens and the device API (the admin screens own the writes).
type Ctx = Pick<AuthContext, "organizationId">;

// Built-in rows (no organisation) and the organisation's own, for any of the lookup tables.
const orgOrBuiltin = (organizationId: number) =>
  sql<boolean>`(organization_id is null or organization_id = ${organizationId})`;

/** With `t`, built-in species and qualities come translated (screens); without, as stored (device API). */
export async function listTimberLookups(db: DB, ctx: Ctx, t?: TFunction) {
  const [woodTypes, woodQualities, assortments, culls, customFields, devices, formulas] = await Promise.all([
    db
      .selectFrom("wood_types")
      .select(["id", "name", "organization_id", "archived"])
      .where(orgOrBuiltin(ctx.organizationId))
      .orderBy("id")
      .execute(),
    db
      .selectFrom("wood_qualities")
      .select(["id", "name", "organization_id", "archived"])
      .where(orgOrBuiltin(ctx.organizationId))
      .orderBy("id")
      .execute(),
    db
      .selectFrom("assortments")
      .select([
        "id",
        "name",
        "archived",
        "min_diameter",
        "max_diameter",
        "price_cents",
        "price_per_log_cents",
        "volume_unit",
        "wood_type_id",
        "log_length",
      ])
      .where(orgOrBuiltin(ctx.organizationId))
      .orderBy("name")
      .execute(),
    db
      .selectFrom("culls")
      .select(["id", "reason", "min", "max", "archived"])
      .where(orgOrBuiltin(ctx.organizationId))
      .orderBy("reason")
      .execute(),
    db
      .selectFrom("custom_fields")
      .select(["id", "key", "name", "data_type", "searchable", "required", "archived"])
      .where("organization_id", "=", ctx.organizationId)
      .where("source_key", "=", "measurement")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("devices")
      .select(["id", "name"])
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .orderBy("name")
      .execute(),
    db.selectFrom("volume_formulas").selectAll().orderBy("position").execute(),
  ]);
  const values = customFields.length
    ? await db
        .selectFrom("custom_field_values")
        .select(["custom_field_id", "value"])
        .where("organization_id", "=", ctx.organizationId)
        .where("archived", "=", false)
        .orderBy("rank")
        .execute()
    : [];
  return {
    woodTypes: t ? translateLookups(t, "wood_types", woodTypes) : woodTypes,
    woodQualities: t ? translateLookups(t, "wood_qualities", woodQualities) : woodQualities,
    assortments,
    culls,
    devices,
    formulas: formulas.filter((f) => (PHOTO_FORMULAS as string[]).includes(f.key)),
    customFields: customFields.map((f) => ({
      ...f,
      values: values.filter((v) => v.custom_field_id === f.id).map((v) => v.value),
    })),
  };
}

/** The device's lookups: active rows only, in the payload names the app sends back. */
export async function listDeviceLookups(db: DB, ctx: Ctx, t?: TFunction) {
  const l = await listTimberLookups(db, ctx, t);
  return {
    wood_types: l.woodTypes
      .filter((w) => !w.archived)
      .map((w) => ({
        id: w.id,
        name: w.name,
        species: BUILTIN_WOOD_TYPES.find((b) => b.id === w.id)?.species ?? null,
      })),
    wood_qualities: l.woodQualities.filter((w) => !w.archived).map((w) => ({ id: w.id, name: w.name })),
    wood_characteristics: l.assortments.filter((a) => !a.archived),
    culls: l.culls.filter((c) => !c.archived),
    volume_formulas: l.formulas,
    measurement_types: [0, 1, 2, 3],
    custom_fields: l.customFields.filter((f) => !f.archived),
  };
}

export async function listDeviceStorages(db: DB, device: Device) {
  const ids = await deviceStorageIds(db, device);
  const storages = ids.length
    ? await db
        .selectFrom("storages")
        .select(["id", "name", "latitude", "longitude", "storage_state_id"])
        .where("organization_id", "=", device.organization_id)
        .where("id", "in", ids)
        .orderBy("name")
        .execute()
    : [];
  return {
    storages,
    default_storage_id:
      device.default_storage_id && ids.includes(device.default_storage_id) ? device.default_storage_id : null,
  };
}
