import { z } from "zod";
import { TOP_DIAMETER_FORMULAS } from "~/domain/log-volume";

// Payloads of the timber measuring area: device upload, measurement edits, manual measurements,
// storages, bulk actions. Messages are translation keys of the "timber" namespace.

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const id = () => z.number({ message: "timber:errors.id" }).int("timber:errors.id").positive("timber:errors.id");
const optionalId = () => id().nullable().optional();

/** Formulas the server can compute from a photo's log ends alone (top diameter and length). */
export const PHOTO_FORMULAS = TOP_DIAMETER_FORMULAS as [string, ...string[]];

export const PointSchema = z.object({ x: finite().min(0), y: finite().min(0), modified_at: z.string().max(40).optional() });

export const LogInputSchema = z.object({
  x: finite().min(0),
  y: finite().min(0),
  r: finite().positive("timber:errors.positive").max(5000),
  cull_id: optionalId(),
  wood_characteristic_id: optionalId(),
  isDeleted: z.boolean().optional(),
});

export const ReferenceSchema = z.object({
  x1: finite().min(0),
  y1: finite().min(0),
  x2: finite().min(0),
  y2: finite().min(0),
  /** metres */
  size: finite().positive("timber:errors.positive").max(100),
});

const StatusSchema = z.object({ status: z.number().int().min(0).max(9), score: finite().optional(), angle: finite().optional() });
export const MetrologySchema = z.object({
  angle_validation: StatusSchema.optional(),
  interference: StatusSchema.optional(),
  brightness: StatusSchema.optional(),
  is_valid: z.boolean().optional(),
});

export const CustomFieldValuesSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "timber:errors.customFieldKey"),
  z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()]),
);

const isoDate = () =>
  z
    .string({ message: "timber:errors.date" })
    .refine((s) => !Number.isNaN(Date.parse(s)), "timber:errors.date")
    .transform((s) => new Date(s));

export const MEASUREMENT_TYPE_IDS = [0, 1, 2, 3] as const;
const measurementType = () => z.number({ message: "timber:errors.measurementType" }).int().min(0, "timber:errors.measurementType").max(3, "timber:errors.measurementType");

/** The JSON part of a device upload (the photo travels beside it in the multipart body). */
export const DeviceMeasurementSchema = z
  .object({
    client_id: z.string({ message: "timber:errors.required" }).trim().min(1, "timber:errors.required").max(64),
    taken_at: isoDate(),
    latitude: finite().min(-90, "timber:errors.latitude").max(90, "timber:errors.latitude").nullable().optional(),
    longitude: finite().min(-180, "timber:errors.longitude").max(180, "timber:errors.longitude").nullable().optional(),
    storage_id: id(),
    measurement_type_id: measurementType().default(0),
    wood_type_id: optionalId(),
    wood_quality_id: optionalId(),
    wood_characteristic_id: optionalId(),
    log_length: finite().positive("timber:errors.positive").max(30, "timber:errors.logLength"),
    volume_formula: z.enum(PHOTO_FORMULAS, { message: "timber:errors.formula" }).default("cylinder"),
    logs: z.array(LogInputSchema).max(5000).default([]),
    references: z.array(ReferenceSchema).max(20).default([]),
    load_lines: z.array(z.array(PointSchema).max(200)).max(50).nullable().optional(),
    measurement_area: z.array(PointSchema).min(3, "timber:errors.area").max(2000).nullable().optional(),
    heights: z.array(finite().positive()).max(2000).nullable().optional(),
    metrology: MetrologySchema.nullable().optional(),
    coefficient: finite().gt(0, "timber:errors.coefficient").max(1, "timber:errors.coefficient").nullable().optional(),
    shipment_number: z.string().trim().max(64).nullable().optional(),
    comment: z.string().max(5000).nullable().optional(),
    poor_detection: z.boolean().default(false),
    custom_fields: CustomFieldValuesSchema.default({}),
  })
  .superRefine((v, ctx) => {
    if (v.logs.length > 0 && v.references.length === 0) {
      ctx.addIssue({ code: "custom", path: ["references"], message: "timber:errors.referenceNeeded" });
    }
    if (v.measurement_area && v.logs.length === 0) {
      if (v.references.length === 0) ctx.addIssue({ code: "custom", path: ["references"], message: "timber:errors.referenceNeeded" });
      if (v.coefficient == null) ctx.addIssue({ code: "custom", path: ["coefficient"], message: "timber:errors.coefficient" });
    }
  });
export type DeviceMeasurementInput = z.infer<typeof DeviceMeasurementSchema>;

/** PATCH /measurements/{id}: one of the spec's variants (any subset of these keys). */
export const MeasurementPatchSchema = z
  .object({
    measurement_type_id: measurementType().optional(),
    wood_type_id: optionalId(),
    wood_quality_id: optionalId(),
    wood_characteristic_id: optionalId(),
    log_length: finite().positive("timber:errors.positive").max(30, "timber:errors.logLength").optional(),
    volume_formula: z.enum(PHOTO_FORMULAS, { message: "timber:errors.formula" }).optional(),
    shipment_number: z.string().trim().max(64).nullable().optional(),
    weight: finite().min(0).nullable().optional(),
    weight_density: finite().min(0).nullable().optional(),
    coefficient: finite().gt(0, "timber:errors.coefficient").max(1, "timber:errors.coefficient").nullable().optional(),
    comment: z.string().max(5000).nullable().optional(),
    storage_id: id().optional(),
    latitude: finite().min(-90, "timber:errors.latitude").max(90, "timber:errors.latitude").nullable().optional(),
    longitude: finite().min(-180, "timber:errors.longitude").max(180, "timber:errors.longitude").nullable().optional(),
    logs: z
      .array(
        LogInputSchema.partial().extend({
          id: id().optional(),
        }),
      )
      .max(5000)
      .optional(),
    logs_removed: z.array(id()).max(5000).optional(),
    references: z.array(ReferenceSchema).max(20).optional(),
    poor_detection: z.boolean().optional(),
    measurement_area: z.array(PointSchema).min(3, "timber:errors.area").max(2000).nullable().optional(),
    load_lines: z.array(z.array(PointSchema).min(2, "timber:errors.loadLine").max(200)).max(50).nullable().optional(),
    custom_fields: CustomFieldValuesSchema.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "timber:errors.emptyPatch", path: ["_"] });
export type MeasurementPatch = z.infer<typeof MeasurementPatchSchema>;

/** dd.MM.yyyy (the spec's Estonian-locale dates), yyyy-MM-dd or a full ISO date-time. */
export function parseFilterDate(value: string, endOfDay: boolean): Date | null {
  const s = value.trim();
  let m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  if (m) return dateOnly(Number(m[3]), Number(m[2]), Number(m[1]), endOfDay);
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return dateOnly(Number(m[1]), Number(m[2]), Number(m[3]), endOfDay);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(s)) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

function dateOnly(y: number, mo: number, d: number, endOfDay: boolean) {
  const date = new Date(Date.UTC(y, mo - 1, d, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0, endOfDay ? 999 : 0));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date;
}

const dateParam = (end: boolean) =>
  z
    .string()
    .transform((s, ctx) => {
      const d = parseFilterDate(s, end);
      if (!d) {
        ctx.addIssue({ code: "custom", message: "timber:errors.date" });
        return z.NEVER;
      }
      return d;
    })
    .optional();
const idList = () =>
  z
    .string()
    .regex(/^\s*\d{1,18}\s*(,\s*\d{1,18}\s*)*$/, "timber:errors.idList")
    .transform((s) => s.split(",").map((x) => Number(x.trim())))
    .optional();
const numberParam = () =>
  z
    .string()
    .regex(/^-?\d+([.,]\d+)?$/, "timber:errors.number")
    .transform((s) => Number(s.replace(",", ".")))
    .optional();

/** GET /dashboard_filter (and the dashboard screen's query string): every parameter optional. */
export const DashboardFilterSchema = z.object({
  storage_ids: idList(),
  storage_state_ids: idList(),
  measurement_type_ids: idList(),
  wood_type_ids: idList(),
  wood_quality_ids: idList(),
  wood_characteristic_ids: idList(),
  device_ids: idList(),
  lumber_product_ids: idList(),
  measurement_ids: idList(),
  volume_range_start: numberParam(),
  volume_range_end: numberParam(),
  length_range_start: numberParam(),
  length_range_end: numberParam(),
  measured_at_start: dateParam(false),
  measured_at_end: dateParam(true),
  taken_at_start: dateParam(false),
  taken_at_end: dateParam(true),
  created_at_start: dateParam(false),
  created_at_end: dateParam(true),
  shipment_number: z.string().trim().max(64).optional(),
  measurements_included: z.enum(["true", "false"]).optional(),
  lumber_measurements: z.enum(["true", "false"]).optional(),
  custom_fields: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "timber:errors.customFieldKey"), z.string().max(200)).optional(),
});
export type DashboardFilter = z.infer<typeof DashboardFilterSchema>;

/**
 * Reads the filter from a query string: list parameters may be repeated (storage_ids[]=1) or
 * comma-separated; empty values are dropped; custom_fields[key]=value.
 */
export function filterParamsFromSearch(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const custom: Record<string, string> = {};
  for (const [rawKey, rawValue] of params) {
    const value = rawValue.trim();
    if (value === "") continue;
    const cf = /^custom_fields\[(.+)\]$/.exec(rawKey);
    if (cf) {
      custom[cf[1]] = value;
      continue;
    }
    const key = rawKey.replace(/\[\]$/, "");
    if (!(key in DashboardFilterSchema.shape)) continue;
    // Repeated list parameters (a multi-select, or storage_ids[]=1&storage_ids[]=2) join with commas.
    out[key] = typeof out[key] === "string" && key.endsWith("_ids") ? `${out[key]},${value}` : value;
  }
  if (Object.keys(custom).length) out.custom_fields = custom;
  return out;
}

export const SearchSchema = z.object({
  q: z
    .object({
      f: z
        .object({
          storage_id: id().optional(),
          measurement_id: z.union([id(), z.string().regex(/^\d+(,\d+)*$/, "timber:errors.idList")]).optional(),
        })
        .catchall(z.unknown())
        .default({}),
    })
    .default({ f: {} }),
  fields: z.union([z.string(), z.array(z.string())]).optional(),
  extra_fields: z.union([z.string(), z.array(z.string())]).optional(),
  paginate: z
    .object({ per_page: z.number().int().min(1).max(100).default(5), page: z.number().int().min(1).max(100000).default(1) })
    .default({ per_page: 5, page: 1 }),
});

export const ManualMeasurementSchema = z.object({
  manual_measurement: z.object({
    taken_at: isoDate(),
    measurement_type_id: measurementType(),
    volume: finite().positive("timber:errors.positive").max(100000),
    wood_characteristic_id: optionalId(),
    storage_id: id(),
    comment: z.string().trim().max(5000).nullable().optional(),
  }),
});

export const MoveStorageSchema = z.object({
  move_storage: z.array(z.object({ measurement_id: id(), storage_id: id() })).min(1, "timber:errors.nothingSelected").max(1000),
});

export const MeasurementIdsSchema = z.object({
  measurement_ids: z.array(id()).min(1, "timber:errors.nothingSelected").max(1000),
});

export const DeletedSearchSchema = z.object({
  created_at_from: z.string().optional(),
  created_at_until: z.string().optional(),
});

export const StorageSchema = z.object({
  name: z.string({ message: "timber:errors.required" }).trim().min(1, "timber:errors.required").max(255),
  latitude: z.coerce.number({ message: "timber:errors.number" }).min(-90, "timber:errors.latitude").max(90, "timber:errors.latitude").optional(),
  longitude: z.coerce.number({ message: "timber:errors.number" }).min(-180, "timber:errors.longitude").max(180, "timber:errors.longitude").optional(),
  storage_state_id: z.coerce.number().int().min(1, "timber:errors.state").max(6, "timber:errors.state"),
});
