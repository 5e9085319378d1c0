import { z } from "zod";
import { PRICE_VOLUME_UNITS } from "~/domain/units";
import { boundedJson } from "./limits";

// Payloads of the timber master data calls (accounts.md section 7), shared by the API and /timber forms.

/** Unwraps {<wrapper>: {...}} or takes the body as it is. */
const wrapped = <T extends z.ZodType>(key: string, schema: T) =>
  z.preprocess((b) => (b && typeof b === "object" && key in b ? (b as Record<string, unknown>)[key] : b), schema);

const name = z.string({ error: "accounts:timber.nameRequired" }).trim().min(1, "accounts:timber.nameRequired").max(255);
const optionalNumber = (min = 0) =>
  z
    .preprocess(
      (v) => (v === "" || v === undefined ? null : v),
      z.coerce.number({ error: "accounts:timber.number" }).min(min, "accounts:timber.number").nullable(),
    )
    .optional();
const positive = z.coerce.number({ error: "accounts:timber.positive" }).gt(0, "accounts:timber.positive").max(100000);

export const NamedPatchSchema = z.object({ name: name.optional(), archived: z.boolean().optional() }).strict();
export const NamedCreateSchema = z.object({ name }).strict();
export const woodTypeCreate = wrapped("wood_type", NamedCreateSchema);
export const woodTypePatch = wrapped("wood_type", NamedPatchSchema);
export const woodQualityCreate = wrapped("wood_quality", NamedCreateSchema);
export const woodQualityPatch = wrapped("wood_quality", NamedPatchSchema);

const cullShape = {
  reason: z
    .string({ error: "accounts:timber.reasonRequired" })
    .trim()
    .min(1, "accounts:timber.reasonRequired")
    .max(255),
  min: optionalNumber(),
  max: optionalNumber(),
  archived: z.boolean().optional(),
};
const minMax = (v: { min?: number | null; max?: number | null }, ctx: z.RefinementCtx) => {
  if (v.min != null && v.max != null && v.min > v.max)
    ctx.addIssue({ code: "custom", path: ["max"], message: "accounts:timber.maxBelowMin" });
};
export const CullCreateSchema = wrapped("cull", z.object(cullShape).strict().superRefine(minMax));
export const CullPatchSchema = wrapped("cull", z.object(cullShape).partial().strict().superRefine(minMax));

const lumberShape = { name, plank_length: positive, plank_width: positive, plank_height: positive };
export const LumberProductCreateSchema = wrapped("lumber_product", z.object(lumberShape).strict());
export const LumberProductPatchSchema = wrapped("lumber_product", z.object(lumberShape).partial().strict());

export const ASSORTMENT_VOLUME_UNITS = PRICE_VOLUME_UNITS;
const assortmentShape = {
  name,
  wood_type_id: z.coerce
    .number({ error: "accounts:timber.speciesRequired" })
    .int()
    .positive("accounts:timber.speciesRequired"),
  wood_quality_id: z.preprocess((v) => (v === "" ? null : v), z.coerce.number().int().positive().nullable()).optional(),
  min: optionalNumber(),
  max: optionalNumber(),
  log_length: optionalNumber(),
  weight_density: optionalNumber(),
  diameter_percentage: z
    .preprocess(
      (v) => (v === "" ? null : v),
      z.coerce.number().min(0, "accounts:timber.percentage").max(99.999999, "accounts:timber.percentage").nullable(),
    )
    .optional(),
  price_cents: z.preprocess((v) => (v === "" ? null : v), z.coerce.number().int().min(0).nullable()).optional(),
  price_per_log_cents: z.preprocess((v) => (v === "" ? null : v), z.coerce.number().int().min(0).nullable()).optional(),
  volume_unit: z.enum(ASSORTMENT_VOLUME_UNITS).optional(),
  custom_fields: boundedJson(z.record(z.string().max(64), z.unknown())).optional(),
  archived: z.boolean().optional(),
};
export const AssortmentCreateSchema = wrapped(
  "wood_characteristic",
  z.object(assortmentShape).strict().superRefine(minMax),
);
export const AssortmentPatchSchema = wrapped(
  "wood_characteristic",
  z.object(assortmentShape).partial().strict().superRefine(minMax),
);

const profileShape = {
  name,
  default_cull_id: z.preprocess((v) => (v === "" ? null : v), z.coerce.number().int().positive().nullable()).optional(),
  wood_characteristic_ids: z
    .array(z.coerce.number().int().positive())
    .min(1, "accounts:timber.assortmentsRequired")
    .max(500),
  archived: z.boolean().optional(),
};
export const DiameterProfileCreateSchema = wrapped("diameter_profile", z.object(profileShape).strict());
export const DiameterProfilePatchSchema = wrapped("diameter_profile", z.object(profileShape).partial().strict());

/**
 * The diameter profile rule: every assortment needs both bounds, and no two ranges may overlap,
 * touch or share a bound (so every log diameter maps to at most one assortment).
 */
export function rangesConflict(
  a: { min?: number | null; max?: number | null },
  b: { min?: number | null; max?: number | null },
) {
  if (a.min == null || a.max == null || b.min == null || b.max == null) return true;
  return a.min <= b.max && b.min <= a.max;
}

/**
 * The /timber screens' forms, one per kind: the API's fields (plus the archived checkbox on edit);
 * an assortment's price is typed in money with its basis (per volume or per log), turned into the
 * API's cents by `assortmentFormPayload`. Unknown fields (the form's intent) are dropped.
 */
const money = z
  .preprocess(
    (v) => (typeof v === "string" ? v.replace(",", ".") : v),
    z.coerce.number({ error: "accounts:timber.number" }).min(0, "accounts:timber.number").max(1e9),
  )
  .optional();
const assortmentFormShape = {
  name,
  wood_type_id: assortmentShape.wood_type_id,
  wood_quality_id: assortmentShape.wood_quality_id,
  min: assortmentShape.min,
  max: assortmentShape.max,
  log_length: assortmentShape.log_length,
  weight_density: assortmentShape.weight_density,
  diameter_percentage: assortmentShape.diameter_percentage,
  volume_unit: assortmentShape.volume_unit,
  price_basis: z.enum(["volume", "log"]).default("volume"),
  price: money,
  archived: z.boolean().optional(),
};
export const TIMBER_FORM_SCHEMAS = {
  species: z.object({ name, archived: z.boolean().optional() }),
  qualities: z.object({ name, archived: z.boolean().optional() }),
  culls: z.object(cullShape).superRefine(minMax),
  lumber_products: z.object(lumberShape),
  assortments: z.object(assortmentFormShape).superRefine(minMax),
  diameter_profiles: z.object(profileShape),
} as const;
export type TimberFormKind = keyof typeof TIMBER_FORM_SCHEMAS;

/** The assortment form's values as the API's payload: cents on the chosen basis; empty selects clear. */
export function assortmentFormPayload(v: z.infer<(typeof TIMBER_FORM_SCHEMAS)["assortments"]>, minmax: boolean) {
  const cents = v.price === undefined ? null : Math.round(v.price * 100);
  const { price: _price, price_basis, min, max, ...rest } = v;
  return {
    ...rest,
    wood_quality_id: v.wood_quality_id ?? null,
    ...(minmax ? { min, max } : {}),
    price_cents: price_basis === "volume" ? cents : null,
    price_per_log_cents: price_basis === "log" ? cents : null,
  };
}
