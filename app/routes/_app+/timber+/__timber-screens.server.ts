import {
  createAssortment,
  createCull,
  createDiameterProfile,
  createLumberProduct,
  createNamed,
  deleteLumberProduct,
  getAssortment,
  getDiameterProfile,
  getLumberProduct,
  getNamed,
  listAssortmentRows,
  listCulls,
  listDiameterProfiles,
  listLumberProducts,
  listNamed,
  updateAssortment,
  updateCull,
  updateDiameterProfile,
  updateLumberProduct,
  updateNamed,
} from "~/models/master-data.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";
import { assortmentFormPayload, type TIMBER_FORM_SCHEMAS } from "~/utils/schemas/master-data";
import { TIMBER_KINDS, type TimberKind } from "~/utils/timber-kinds";
import type { TFunction } from "i18next";
import type { z } from "zod";

// The /timber screens: one list, one "new" and one edit screen per kind, driven by this table.
export { TIMBER_KINDS, type TimberKind };

export function parseKind(value: string | undefined): TimberKind {
  if (!TIMBER_KINDS.includes(value as TimberKind)) notFound();
  return value as TimberKind;
}

/** Feature needed to see the kind at all, and to create or edit it. */
export function gates(kind: TimberKind, features: string[]) {
  const has = (f: string) => features.includes(f);
  switch (kind) {
    case "species":
    case "qualities":
      return { view: null, edit: has("timber_management") ? null : "timber_management" };
    case "assortments":
      return {
        view: has("diameter_profiles") ? null : "diameter_profiles",
        edit: has("timber_management") ? null : "timber_management",
      };
    case "diameter_profiles":
      return { view: has("diameter_profiles") ? null : "diameter_profiles", edit: null };
    default:
      return { view: null, edit: null };
  }
}

export type Row = { id: number; cells: string[]; builtIn: boolean; archived: boolean };

const num = (v: number | null | undefined) => (v === null || v === undefined ? "—" : String(v));

export async function listRows(
  kind: TimberKind,
  ctx: AuthContext,
  t: TFunction,
): Promise<{ columns: string[]; rows: Row[] }> {
  const byName = <T extends { cells: string[] }>(rows: T[]) =>
    rows.sort((a, b) => a.cells[0].localeCompare(b.cells[0]));
  switch (kind) {
    case "species":
    case "qualities": {
      const rows = await listNamed(db(), ctx, kind === "species" ? "wood_types" : "wood_qualities", t);
      return {
        columns: ["name"],
        rows: byName(
          rows.map((r) => ({ id: r.id, cells: [r.name], builtIn: r.organization_id === null, archived: r.archived })),
        ),
      };
    }
    case "culls": {
      const rows = await listCulls(db(), ctx);
      return {
        columns: ["reason", "min", "max"],
        rows: byName(
          rows.map((r) => ({
            id: r.id,
            cells: [r.reason, num(r.min), num(r.max)],
            builtIn: r.organization_id === null,
            archived: r.archived,
          })),
        ),
      };
    }
    case "lumber_products": {
      const rows = await listLumberProducts(db(), ctx);
      return {
        columns: ["name", "plank_length", "plank_width", "plank_height"],
        rows: byName(
          rows.map((r) => ({
            id: r.id,
            cells: [r.name, num(r.plank_length), num(r.plank_width), num(r.plank_height)],
            builtIn: false,
            archived: false,
          })),
        ),
      };
    }
    case "assortments": {
      const [rows, species] = await Promise.all([listAssortmentRows(db(), ctx), listNamed(db(), ctx, "wood_types", t)]);
      const speciesName = (id: number | null) => species.find((s) => s.id === id)?.name ?? "—";
      return {
        columns: ["name", "species", "min", "max"],
        rows: byName(
          rows.map((r) => ({
            id: r.id,
            cells: [r.name, speciesName(r.wood_type_id), num(r.min), num(r.max)],
            builtIn: r.organization_id === null,
            archived: r.archived,
          })),
        ),
      };
    }
    case "diameter_profiles": {
      const rows = await listDiameterProfiles(db(), ctx);
      return {
        columns: ["name", "assortmentCount"],
        rows: byName(
          rows.map((r) => ({
            id: r.id,
            cells: [r.name, String(r.wood_characteristic_ids.length)],
            builtIn: false,
            archived: r.archived,
          })),
        ),
      };
    }
  }
}

export type Option = { id: number; name: string; min?: number | null; max?: number | null };

/** The record being edited (undefined: not the organisation's, or built-in) and the choices of its selects. */
export async function loadForm(kind: TimberKind, ctx: AuthContext, t: TFunction, id: number | null) {
  let record: Record<string, unknown> | undefined = {};
  const options: Record<string, Option[]> = {};
  if (kind === "assortments") {
    options.wood_type_id = (await listNamed(db(), ctx, "wood_types", t)).filter((r) => !r.archived);
    options.wood_quality_id = (await listNamed(db(), ctx, "wood_qualities", t)).filter((r) => !r.archived);
  }
  if (kind === "diameter_profiles") {
    options.default_cull_id = (await listCulls(db(), ctx))
      .filter((c) => !c.archived)
      .map((c) => ({ id: c.id, name: c.reason }));
    options.wood_characteristic_ids = (await listAssortmentRows(db(), ctx))
      .filter((a) => !a.archived)
      .map((a) => ({ id: a.id, name: a.name, min: a.min, max: a.max }));
  }
  if (id !== null) {
    switch (kind) {
      case "species":
      case "qualities":
        record = await getNamed(db(), ctx, kind === "species" ? "wood_types" : "wood_qualities", id);
        break;
      case "culls":
        record = (await listCulls(db(), ctx)).find((c) => c.id === id && c.organization_id !== null);
        break;
      case "lumber_products":
        record = await getLumberProduct(db(), ctx, id);
        break;
      case "assortments": {
        const a = await getAssortment(db(), ctx, id);
        record = a
          ? {
              ...a,
              price_basis: a.price_per_log_cents != null ? "log" : "volume",
              price: centsToMoney(a.price_per_log_cents ?? a.price_cents),
            }
          : undefined;
        break;
      }
      case "diameter_profiles":
        record = await getDiameterProfile(db(), ctx, id);
        break;
    }
  }
  return { record, options };
}

function centsToMoney(cents: number | null | undefined) {
  return cents === null || cents === undefined ? "" : (cents / 100).toFixed(2);
}

/** The form's values of a kind (what `TIMBER_FORM_SCHEMAS[kind]` parses). */
export type TimberFormValues = { [K in TimberKind]: z.infer<(typeof TIMBER_FORM_SCHEMAS)[K]> };

/**
 * Creates (id null) or updates a record from the screen's parsed form. The models' own refusals
 * (a lookup not the organisation's, overlapping profile ranges) come back as field errors.
 */
export async function saveForm<K extends TimberKind>(
  kind: K,
  ctx: AuthContext,
  id: number | null,
  values: TimberFormValues[K],
): Promise<{ errors: Record<string, string[]> } | { id: number }> {
  const archived = "archived" in values && !!values.archived;
  switch (kind) {
    case "species":
    case "qualities": {
      const v = values as TimberFormValues["species"];
      const table = kind === "species" ? "wood_types" : "wood_qualities";
      if (id === null) return { id: await createNamed(db(), ctx, table, v.name) };
      await updateNamed(db(), ctx, table, id, { name: v.name, archived });
      return { id };
    }
    case "culls": {
      const { archived: _a, ...v } = values as TimberFormValues["culls"];
      if (id === null) return { id: await createCull(db(), ctx, v) };
      await updateCull(db(), ctx, id, { ...v, archived });
      return { id };
    }
    case "lumber_products": {
      const v = values as TimberFormValues["lumber_products"];
      if (id === null) return { id: await createLumberProduct(db(), ctx, v) };
      await updateLumberProduct(db(), ctx, id, v);
      return { id };
    }
    case "assortments": {
      const { archived: _a, ...v } = assortmentFormPayload(
        values as TimberFormValues["assortments"],
        ctx.features.includes("minmax_assortments"),
      );
      if (id === null) {
        const created = await createAssortment(db(), ctx, v);
        return "error" in created
          ? { errors: { [created.error!]: ["accounts:timber.lookupInvalid"] } }
          : { id: created.id! };
      }
      const result = await updateAssortment(db(), ctx, id, { ...v, archived });
      return typeof result === "object" ? { errors: { [result.error]: ["accounts:timber.lookupInvalid"] } } : { id };
    }
    case "diameter_profiles": {
      const { archived: _a, ...rest } = values as TimberFormValues["diameter_profiles"];
      const v = { ...rest, default_cull_id: rest.default_cull_id ?? null };
      if (id === null) {
        const created = await createDiameterProfile(db(), ctx, v);
        return created.problem
          ? { errors: { [created.problem.field]: [created.problem.message] } }
          : { id: created.id! };
      }
      const result = await updateDiameterProfile(db(), ctx, id, { ...v, archived });
      return result.problem ? { errors: { [result.problem.field]: [result.problem.message] } } : { id };
    }
  }
  throw new Error(`unknown timber kind ${kind}`);
}

export async function deleteRecord(kind: TimberKind, ctx: AuthContext, id: number) {
  if (kind === "lumber_products") return deleteLumberProduct(db(), ctx, id);
  return false;
}
