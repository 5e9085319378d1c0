import type { TFunction } from "i18next";

// Built-in lookup rows (organization_id null) carry an English name in the database and their
// translations in locales/*/lookups.json; an organisation's own rows are its own words. Every
// screen, export, PDF and API label shows a lookup through this one function.
export type NamedLookupTable = "wood_types" | "wood_qualities";

export function lookupName(
  t: TFunction,
  table: NamedLookupTable,
  row: { id: number; name: string | null; organization_id: number | null },
): string {
  const name = row.name ?? "";
  return row.organization_id === null ? t(`lookups:${table}.${row.id}`, { defaultValue: name }) : name;
}

/** The same rows with their names translated (built-in rows only). */
export function translateLookups<R extends { id: number; name: string; organization_id: number | null }>(
  t: TFunction,
  table: NamedLookupTable,
  rows: R[],
): R[] {
  return rows.map((r) => ({ ...r, name: lookupName(t, table, r) }));
}

/** Fixed enumerations of the product, translated the same way. */
export const formulaName = (t: TFunction, key: string) => t(`lookups:formulas.${key}.name`, { defaultValue: key });
export const formulaDescription = (t: TFunction, key: string) =>
  t(`lookups:formulas.${key}.description`, { defaultValue: "" });
export const measurementTypeName = (t: TFunction, id: number) =>
  t(`lookups:measurementTypes.${id}`, { defaultValue: String(id) });
export const storageStateName = (t: TFunction, id: number) =>
  t(`lookups:storageStates.${id}`, { defaultValue: String(id) });
