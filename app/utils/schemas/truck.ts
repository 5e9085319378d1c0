import { z } from "zod";
import { DEVICE_UPLOAD_FIELDS, isoDate, measurementType } from "./measurement";
import { ReferenceSchema } from "./timber";

// Payloads of the truck calls (docs/decisions/017-trucks.md): the dashboard's search, the loads
// editor's PATCH, delete, and the device's routes and checkpoints. Messages are translation keys
// ("timber" for the ones every measurement shares, "trucks" for the truck's own).

export const LOAD_LIMIT = 20;
export const CHECKPOINT_BATCH_LIMIT = 500;
export const TRUCK_PAGE_SIZE = 5;
export const REFERENCE_LIMIT = 20;

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const id = () => z.number({ message: "timber:errors.id" }).int("timber:errors.id").positive("timber:errors.id");
/** A load's side in metres: a truck bed is never 0 and never 30 m. */
const metres = () => finite().positive("timber:errors.positive").max(30, "trucks:errors.tooLarge");
const unknownField = {
  error: (issue: { code?: string }) => (issue.code === "unrecognized_keys" ? "timber:errors.unknownField" : undefined),
};

/** One load: with an id it changes that load; without one it is a new load (all four sides needed). */
export const TruckLoadInputSchema = z.strictObject(
  {
    id: id().optional(),
    height: metres().optional(),
    load_width: metres().optional(),
    log_length: metres().optional(),
    coefficient: finite().min(0, "trucks:errors.coefficient").max(1, "trucks:errors.coefficient").optional(),
    wood_type_id: id().nullable().optional(),
    wood_quality_id: id().nullable().optional(),
    assortment_id: id().nullable().optional(),
    load_bed_name: z.string().trim().max(64, "trucks:errors.tooLong").nullable().optional(),
  },
  unknownField,
);
export type TruckLoadInput = z.infer<typeof TruckLoadInputSchema>;

/**
 * PATCH /truck_measurements/{id}: loads, loads_removed, measurement type, weight, weight density,
 * and the photo editor's references (the reference lines drawn on the photo) and volume formula.
 */
export const TruckPatchSchema = z.strictObject(
  {
    loads: z.array(TruckLoadInputSchema).max(LOAD_LIMIT, "trucks:errors.tooManyLoads").optional(),
    loads_removed: z.array(id()).max(LOAD_LIMIT).optional(),
    measurement_type_id: measurementType().optional(),
    weight: finite().min(0, "timber:errors.nonNegative").max(1_000_000, "trucks:errors.tooLarge").nullable().optional(),
    weight_density: finite()
      .min(0, "timber:errors.nonNegative")
      .max(100, "trucks:errors.tooLarge")
      .nullable()
      .optional(),
    volume_formula: z.string().trim().max(32, "trucks:errors.tooLong").nullable().optional(),
    references: z.array(ReferenceSchema).max(REFERENCE_LIMIT, "shipments:errors.tooMany").optional(),
  },
  unknownField,
);
export type TruckPatch = z.infer<typeof TruckPatchSchema>;

/** POST /truck_measurements/search: {q: {f: {storage_id, measurement_id, license_plate}}, paginate: {per_page, page}}. */
export const TruckSearchSchema = z.object({
  q: z
    .object({
      f: z
        .object({
          storage_id: id().optional(),
          measurement_id: id().optional(),
          license_plate: z.string().trim().max(32, "trucks:errors.tooLong").optional(),
        })
        .default({}),
    })
    .default({ f: {} }),
  paginate: z
    .object({
      per_page: z.literal(TRUCK_PAGE_SIZE, { message: "trucks:errors.perPage" }).default(TRUCK_PAGE_SIZE),
      page: z.number().int().min(1).max(100_000).default(1),
    })
    .default({ per_page: TRUCK_PAGE_SIZE, page: 1 }),
});
export type TruckSearch = z.infer<typeof TruckSearchSchema>;

/** DELETE /truck_measurements {measurement_ids}. */
export const TruckIdsSchema = z.object({
  measurement_ids: z.array(id()).min(1, "timber:errors.required").max(1000),
});

/** The truck dashboard's filters (query string): plate and the two exclusive "only" checkboxes. */
export const TruckDashboardFilterSchema = z
  .object({
    license_plate: z.string().trim().max(32, "trucks:errors.tooLong").optional(),
    truck_measurements_only: z.literal("true").optional(),
    truck_diameter_measurements_only: z.literal("true").optional(),
  })
  .superRefine((f, ctx) => {
    if (f.truck_measurements_only && f.truck_diameter_measurements_only)
      ctx.addIssue({ code: "custom", path: ["truck_diameter_measurements_only"], message: "trucks:errors.exclusive" });
  });
export type TruckDashboardFilter = z.infer<typeof TruckDashboardFilterSchema>;

const coordinate = {
  latitude: finite().min(-90, "timber:errors.latitude").max(90, "timber:errors.latitude"),
  longitude: finite().min(-180, "timber:errors.longitude").max(180, "timber:errors.longitude"),
};
const clientId = () => z.string({ message: "timber:errors.required" }).trim().min(1, "timber:errors.required").max(64);

/** POST /api/device/truck_routes: start a route for one of the organisation's truck measurements. */
export const TruckRouteStartSchema = z.strictObject(
  { client_id: clientId(), truck_measurement_id: id(), started_at: isoDate() },
  unknownField,
);

/** PATCH /api/device/truck_routes/{id}: finish it. */
export const TruckRouteFinishSchema = z.strictObject({ finished_at: isoDate() }, unknownField);

/** One GPS checkpoint; speed km/h and heading degrees when the phone has them. */
export const CheckpointInputSchema = z.strictObject(
  {
    client_id: clientId(),
    ...coordinate,
    recorded_at: isoDate(),
    speed: finite().min(0, "timber:errors.nonNegative").max(400, "trucks:errors.tooLarge").nullable().optional(),
    heading: finite().min(0, "timber:errors.nonNegative").max(360, "trucks:errors.tooLarge").nullable().optional(),
  },
  unknownField,
);
export type CheckpointInput = z.infer<typeof CheckpointInputSchema>;

/** POST /api/device/truck_routes/{id}/checkpoints {checkpoints}: in any order, resent safely. */
export const CheckpointBatchSchema = z.strictObject(
  {
    checkpoints: z
      .array(CheckpointInputSchema)
      .min(1, "timber:errors.required")
      .max(CHECKPOINT_BATCH_LIMIT, "trucks:errors.batchTooLarge"),
  },
  unknownField,
);

/** One load of a device upload: all four sides. */
export const UploadedTruckLoadSchema = z.strictObject(
  {
    height: metres(),
    load_width: metres(),
    log_length: metres(),
    coefficient: finite().min(0, "trucks:errors.coefficient").max(1, "trucks:errors.coefficient"),
    wood_type_id: id().nullable().optional(),
    wood_quality_id: id().nullable().optional(),
    assortment_id: id().nullable().optional(),
    load_bed_name: z.string().trim().max(64, "trucks:errors.tooLong").nullable().optional(),
  },
  unknownField,
);

/** POST /api/device/truck_measurements: the `measurement` JSON part (the photo is the other part). */
export const TruckDeviceMeasurementSchema = z.object({
  ...DEVICE_UPLOAD_FIELDS,
  license_plate: z.string().trim().max(32, "trucks:errors.tooLong").nullable().optional(),
  shipment_number: z.string().trim().max(64, "trucks:errors.tooLong").nullable().optional(),
  measured_at: isoDate().nullable().optional(),
  weight: finite().min(0, "timber:errors.nonNegative").max(1_000_000, "trucks:errors.tooLarge").nullable().optional(),
  weight_density: finite().min(0, "timber:errors.nonNegative").max(100, "trucks:errors.tooLarge").nullable().optional(),
  volume_formula: z.string().trim().max(32, "trucks:errors.tooLong").nullable().optional(),
  loads: z.array(UploadedTruckLoadSchema).max(LOAD_LIMIT, "trucks:errors.tooManyLoads").default([]),
});
export type TruckDeviceMeasurementInput = z.infer<typeof TruckDeviceMeasurementSchema>;

const load = TruckLoadInputSchema.shape;
const patchShape = TruckPatchSchema.shape;
/**
 * The detail page's loads editor (decision 010): one row per stored load (its id, a remove box)
 * and a last, empty "new load" row, then the measurement's type, weight and weight density. The
 * rules are the PATCH's own fields; `loadsFormPatch` turns the values into the PATCH payload.
 */
export const TruckLoadsFormSchema = z.object({
  loads: z
    .array(
      z.object({
        id: load.id,
        height: load.height,
        load_width: load.load_width,
        log_length: load.log_length,
        coefficient: load.coefficient,
        load_bed_name: z.string().trim().max(64, "trucks:errors.tooLong").optional(),
        remove: z.boolean().optional(),
      }),
    )
    .max(LOAD_LIMIT + 1, "trucks:errors.tooManyLoads")
    .default([]),
  measurement_type_id: measurementType(),
  weight: patchShape.weight,
  weight_density: patchShape.weight_density,
});
export type TruckLoadsForm = z.infer<typeof TruckLoadsFormSchema>;
/** The loads editor's numbers a user may type with a decimal comma. */
export const LOAD_DECIMAL_FIELDS = ["height", "load_width", "log_length", "coefficient"] as const;

/**
 * The loads editor's values as the PATCH payload: a checked remove box removes its load, the
 * empty new row adds nothing, an emptied bed name, weight or weight density clears it. `rows`
 * and `removedRows` give each payload index its form row, to put the PATCH's errors beside it.
 */
export function loadsFormPatch(value: TruckLoadsForm): { patch: TruckPatch; rows: number[]; removedRows: number[] } {
  const loads: TruckLoadInput[] = [];
  const removed: number[] = [];
  const rows: number[] = [];
  const removedRows: number[] = [];
  value.loads.forEach((l, i) => {
    if (!l) return;
    if (l.id !== undefined && l.remove) {
      removed.push(l.id);
      removedRows.push(i);
      return;
    }
    const sides = { height: l.height, load_width: l.load_width, log_length: l.log_length, coefficient: l.coefficient };
    if (l.id === undefined && Object.values(sides).every((v) => v === undefined) && !l.load_bed_name) return;
    const out: TruckLoadInput = { load_bed_name: l.load_bed_name ?? null };
    if (l.id !== undefined) out.id = l.id;
    for (const [k, v] of Object.entries(sides)) if (v !== undefined) out[k as keyof typeof sides] = v;
    loads.push(out);
    rows.push(i);
  });
  return {
    patch: {
      loads,
      loads_removed: removed,
      measurement_type_id: value.measurement_type_id,
      weight: value.weight ?? null,
      weight_density: value.weight_density ?? null,
    },
    rows,
    removedRows,
  };
}

/** A PATCH error key (`loads.2.height`) as the loads editor's field name (`loads[4].height`). */
export function loadsFormErrorKey(key: string, rows: number[], removedRows: number[]) {
  const m = /^(loads|loads_removed)\.(\d+)(?:\.(.+))?$/.exec(key);
  if (!m) return key;
  const row = (m[1] === "loads" ? rows : removedRows)[Number(m[2])] ?? Number(m[2]);
  return m[3] ? `loads[${row}].${m[3]}` : `loads[${row}].id`;
}
