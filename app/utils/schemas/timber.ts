import { z } from "zod";
import { TOP_DIAMETER_FORMULAS } from "~/domain/log-volume";
import { zonedLocalToDate } from "~/utils/timber-dates";
import { isSaneDate } from "./limits";
import { CustomFieldValuesSchema, DEVICE_UPLOAD_FIELDS, isoDate, measurementType } from "./measurement";

// Payloads of the timber measuring area: device upload, measurement edits, manual measurements,
// storages, bulk actions. Messages are translation keys of the "timber" namespace.

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const id = () => z.number({ message: "timber:errors.id" }).int("timber:errors.id").positive("timber:errors.id");
const optionalId = () => id().nullable().optional();

/** Formulas the server can compute from a photo's log ends alone (top diameter and length). */
export const PHOTO_FORMULAS = TOP_DIAMETER_FORMULAS as [string, ...string[]];

export const PointSchema = z.object({
  x: finite().min(0),
  y: finite().min(0),
  modified_at: z.string().max(40).optional(),
});

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

const StatusSchema = z.object({
  status: z.number().int().min(0).max(9),
  score: finite().optional(),
  angle: finite().optional(),
});
export const MetrologySchema = z.object({
  angle_validation: StatusSchema.optional(),
  interference: StatusSchema.optional(),
  brightness: StatusSchema.optional(),
  is_valid: z.boolean().optional(),
});

export const MEASUREMENT_TYPE_IDS = [0, 1, 2, 3] as const;
/** The JSON part of a device upload (the photo travels beside it in the multipart body). */
export const DeviceMeasurementSchema = z
  .object({
    ...DEVICE_UPLOAD_FIELDS,
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
    poor_detection: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.logs.length > 0 && v.references.length === 0) {
      ctx.addIssue({ code: "custom", path: ["references"], message: "timber:errors.referenceNeeded" });
    }
    if (v.measurement_area && v.logs.length === 0) {
      if (v.references.length === 0)
        ctx.addIssue({ code: "custom", path: ["references"], message: "timber:errors.referenceNeeded" });
      if (v.coefficient == null)
        ctx.addIssue({ code: "custom", path: ["coefficient"], message: "timber:errors.coefficient" });
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

/**
 * dd.MM.yyyy (the spec's Estonian-locale dates), yyyy-MM-dd or a full ISO date-time. A date
 * without a time is a day on the user's wall clock: "today" in Tallinn starts at 22:00 UTC the
 * evening before, so it is not the UTC day of the same name.
 */
export function parseFilterDate(value: string, endOfDay: boolean, timeZone = "UTC"): Date | null {
  const s = value.trim();
  let m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  if (m) return dayBound(Number(m[3]), Number(m[2]), Number(m[1]), endOfDay, timeZone);
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return dayBound(Number(m[1]), Number(m[2]), Number(m[3]), endOfDay, timeZone);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(s)) return null;
  const d = new Date(s);
  return isSaneDate(d) ? d : null;
}

/** The first instant of the day in the time zone, or the last millisecond before the next day's. */
function dayBound(y: number, mo: number, d: number, endOfDay: boolean, timeZone: string) {
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (!isSaneDate(day)) return null;
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  if (endOfDay) day.setUTCDate(day.getUTCDate() + 1);
  const start = zonedLocalToDate(`${day.toISOString().slice(0, 10)}T00:00`, timeZone);
  if (!start) return null;
  return endOfDay ? new Date(start.getTime() - 1) : start;
}

const dateParam = (end: boolean, timeZone: string) =>
  z
    .string()
    .transform((s, ctx) => {
      const d = parseFilterDate(s, end, timeZone);
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

/**
 * GET /dashboard_filter (and the dashboard screen's query string): every parameter optional.
 * Dates without a time are days in the user's time zone.
 */
const buildDashboardFilterSchema = (timeZone: string) =>
  z.object({
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
    measured_at_start: dateParam(false, timeZone),
    measured_at_end: dateParam(true, timeZone),
    taken_at_start: dateParam(false, timeZone),
    taken_at_end: dateParam(true, timeZone),
    created_at_start: dateParam(false, timeZone),
    created_at_end: dateParam(true, timeZone),
    shipment_number: z.string().trim().max(64).optional(),
    measurements_included: z.enum(["true", "false"]).optional(),
    lumber_measurements: z.enum(["true", "false"]).optional(),
    custom_fields: z
      .record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "timber:errors.customFieldKey"), z.string().max(200))
      .optional(),
  });
const DAY_PARAMS = [
  ["measured_at_start", false],
  ["measured_at_end", true],
  ["taken_at_start", false],
  ["taken_at_end", true],
  ["created_at_start", false],
  ["created_at_end", true],
] as const;

// Building the schema cost ~1.3 ms per dashboard call; schemas are immutable, so one per time zone.
const dashboardFilterSchemas = new Map<string, ReturnType<typeof buildDashboardFilterSchema>>();

/** The dashboard filter for a user in `timeZone` (filter days are days on that zone's calendar). */
export function dashboardFilterSchema(timeZone: string) {
  let schema = dashboardFilterSchemas.get(timeZone);
  if (!schema) {
    schema = buildDashboardFilterSchema(timeZone);
    dashboardFilterSchemas.set(timeZone, schema);
  }
  return schema;
}

/**
 * The body with its date-only filter values turned into the instants they mean in the time zone
 * (for bodies that are parsed later without one, such as an export's selection).
 */
export function withZonedFilterDays(body: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  const out = { ...body };
  for (const [key, endOfDay] of DAY_PARAMS) {
    const value = out[key];
    if (typeof value !== "string" || value.includes("T")) continue;
    const instant = parseFilterDate(value, endOfDay, timeZone);
    if (instant) out[key] = instant.toISOString();
  }
  return out;
}

/** The filter's shape (its keys); parse with dashboardFilterSchema(the user's time zone). */
export const DashboardFilterSchema = dashboardFilterSchema("UTC");
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
    .object({
      per_page: z.number().int().min(1).max(100).default(5),
      page: z.number().int().min(1).max(100000).default(1),
    })
    .default({ per_page: 5, page: 1 }),
});

const ManualMeasurementFields = z.object({
  taken_at: isoDate(),
  measurement_type_id: measurementType(),
  volume: finite().positive("timber:errors.positive").max(100000),
  wood_characteristic_id: optionalId(),
  storage_id: id(),
  comment: z.string().trim().max(5000).nullable().optional(),
});

/** POST /api/web_app/manual_measurements. */
export const ManualMeasurementSchema = z.object({ manual_measurement: ManualMeasurementFields });

/**
 * The manual-measurement screen's form: the API's fields, the storage from the URL, and the time
 * as the user's wall clock (datetime-local) in their time zone.
 */
export function manualMeasurementFormSchema(timeZone: string) {
  return ManualMeasurementFields.omit({ storage_id: true }).extend({
    taken_at: z.string({ message: "timber:errors.date" }).transform((local, ctx) => {
      const date = zonedLocalToDate(local, timeZone);
      if (!date) {
        ctx.addIssue({ code: "custom", message: "timber:errors.date" });
        return z.NEVER;
      }
      return date;
    }),
  });
}

export const MoveStorageSchema = z.object({
  move_storage: z
    .array(z.object({ measurement_id: id(), storage_id: id() }))
    .min(1, "timber:errors.nothingSelected")
    .max(1000),
});

export const MeasurementIdsSchema = z.object({
  measurement_ids: z.array(id()).min(1, "timber:errors.nothingSelected").max(1000),
});

// The dashboard's bulk bar (one form, an intent per button): the ticked measurements and the
// chosen target, made into the payloads above.
const bulkIds = z
  .array(id(), { message: "timber:bulk.nothingSelected" })
  .min(1, "timber:bulk.nothingSelected")
  .max(1000);
const bulkTarget = z
  .number({ message: "timber:bulk.chooseTarget" })
  .int("timber:bulk.chooseTarget")
  .positive("timber:bulk.chooseTarget");
const bulkReport = z
  .number({ message: "mixed-stack:errors.chooseReport" })
  .int("mixed-stack:errors.chooseReport")
  .positive("mixed-stack:errors.chooseReport");
/** Move: POST /measurements/move_storage with every ticked measurement going to the one target. */
export const BulkMoveFormSchema = z.object({ measurement_ids: bulkIds, target_storage_id: bulkTarget });
export function bulkMovePayload(value: z.infer<typeof BulkMoveFormSchema>) {
  return {
    move_storage: value.measurement_ids.map((m) => ({ measurement_id: m, storage_id: value.target_storage_id })),
  };
}
/** Delete: the ticked measurements (DELETE /measurements's measurement_ids). */
export const BulkDeleteFormSchema = z.object({ measurement_ids: bulkIds });
/** Attach to a mixed stack report (close up or far away). */
export const BulkMixedStackFormSchema = z.object({ measurement_ids: bulkIds, mixed_stack_report_id: bulkReport });
/** The whole bar's fields (its constraint; each intent parses with its own schema above). */
export const BulkBarFormSchema = z.object({
  measurement_ids: bulkIds,
  target_storage_id: bulkTarget.optional(),
  mixed_stack_report_id: bulkReport.optional(),
});

export const DeletedSearchSchema = z.object({
  created_at_from: z.string().optional(),
  created_at_until: z.string().optional(),
});

export const StorageSchema = z.object({
  name: z.string({ message: "timber:errors.required" }).trim().min(1, "timber:errors.required").max(255),
  latitude: z.coerce
    .number({ message: "timber:errors.number" })
    .min(-90, "timber:errors.latitude")
    .max(90, "timber:errors.latitude")
    .optional(),
  longitude: z.coerce
    .number({ message: "timber:errors.number" })
    .min(-180, "timber:errors.longitude")
    .max(180, "timber:errors.longitude")
    .optional(),
  storage_state_id: z.coerce.number().int().min(1, "timber:errors.state").max(6, "timber:errors.state"),
});

const patch = MeasurementPatchSchema.shape;
/**
 * The measurement detail page's section forms: each a part of PATCH /measurements/{id} (the same
 * rules). A field left empty clears a nullable value (see `detailFormPatch`); custom field values
 * are posted as `cf.<key>` and checked by the model against the organisation's fields.
 */
export const MEASUREMENT_DETAIL_FORMS = {
  details: z.object({
    measurement_type_id: patch.measurement_type_id,
    wood_type_id: patch.wood_type_id,
    wood_quality_id: patch.wood_quality_id,
    wood_characteristic_id: patch.wood_characteristic_id,
    log_length: patch.log_length,
    volume_formula: patch.volume_formula,
  }),
  metadata: z.object({
    shipment_number: patch.shipment_number,
    weight: patch.weight,
    weight_density: patch.weight_density,
    coefficient: patch.coefficient,
    comment: patch.comment,
  }),
  location: z.object({ storage_id: patch.storage_id, latitude: patch.latitude, longitude: patch.longitude }),
  custom_fields: z.object({ cf: z.record(z.string().max(64), z.string().trim().max(5000)).optional() }),
} as const;
export type MeasurementDetailForm = keyof typeof MEASUREMENT_DETAIL_FORMS;
/** The fields of each section form that an empty input clears (null), rather than leaves as they are. */
const CLEARED_WHEN_EMPTY: Record<MeasurementDetailForm, string[]> = {
  details: ["wood_type_id", "wood_quality_id", "wood_characteristic_id"],
  metadata: ["shipment_number", "weight", "weight_density", "comment"],
  location: ["latitude", "longitude"],
  custom_fields: [],
};
/** The numbers a user may type with a decimal comma. */
export const DETAIL_DECIMAL_FIELDS = ["log_length", "weight", "weight_density", "coefficient", "latitude", "longitude"];

/** A section form's parsed values as the PATCH payload: emptied fields cleared, custom fields by key. */
export function detailFormPatch(
  form: MeasurementDetailForm,
  value: Record<string, unknown>,
  customFieldKeys: string[],
): MeasurementPatch {
  if (form === "custom_fields") {
    const cf = (value.cf ?? {}) as Record<string, string | undefined>;
    return { custom_fields: Object.fromEntries(customFieldKeys.map((k) => [k, cf[k] ? cf[k] : null])) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  for (const k of CLEARED_WHEN_EMPTY[form]) if (value[k] === undefined) out[k] = null;
  return out as MeasurementPatch;
}
