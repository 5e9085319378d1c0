import { z } from "zod";
import { CustomFieldValuesSchema, DEVICE_UPLOAD_FIELDS, isoDate } from "./measurement";
import { ReferenceSchema } from "./timber";

// Containers and bills of lading (docs/decisions/022-containers.md): the payloads of the
// /containers/* calls, shared by the API routes and the container mode's forms. Messages are
// translation keys ("containers" for the area's own, "timber" for what every measurement shares).

export const BOL_NAME_MAX = 255;
export const CONTAINER_NAME_MAX = 255;
/** The free-text container fields (seal number, weight, width, height) fit varchar(64). */
export const CONTAINER_TEXT_MAX = 64;
export const CONTAINERS_PER_ADD = 100;
export const CONTAINER_IDS_MAX = 1000;
export const BOL_PAGE_SIZE = 20;
/** Container volumes are JAS (app/domain/container.ts). */
export const CONTAINER_FORMULAS = ["jas"] as const;

const id = () =>
  z.number({ message: "containers:errors.id" }).int("containers:errors.id").positive("containers:errors.id");
/** A form posts ids as text: "" is none, "12" a number. */
const formId = () =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : typeof v === "string" && /^\d{1,18}$/.test(v) ? Number(v) : v),
    id(),
  );
const nullableFormId = () =>
  z.preprocess(
    (v) => (v === "" || v === "none" ? null : typeof v === "string" && /^\d{1,18}$/.test(v) ? Number(v) : v),
    id().nullable(),
  );
/** kg, numeric; a form's "" is none and a decimal comma is accepted. */
const weightKg = () =>
  z.preprocess(
    (v) => (v === "" ? null : typeof v === "string" ? Number(v.trim().replace(",", ".")) : v),
    z
      .number({ message: "containers:errors.number" })
      .finite("containers:errors.number")
      .min(0, "containers:errors.number")
      .max(1_000_000, "containers:errors.tooLarge")
      .nullable(),
  );
const text = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z.string({ message: "containers:errors.text" }).trim().max(max, "containers:errors.tooLong").nullable(),
  );
const bolName = () =>
  z
    .string({ message: "containers:errors.name" })
    .trim()
    .min(1, "containers:errors.name")
    .max(BOL_NAME_MAX, "containers:errors.tooLong");
const containerName = () =>
  z
    .string({ message: "containers:errors.name" })
    .trim()
    .min(1, "containers:errors.name")
    .max(CONTAINER_NAME_MAX, "containers:errors.tooLong");
const bool = () => z.preprocess((v) => (v === "true" || v === "on" ? true : v === "false" ? false : v), z.boolean());

/** A body that wraps its fields in `key` ({bill_of_lading: {...}}) or sends them flat (a form). */
function wrapped<S extends z.ZodType>(key: string, schema: S) {
  return z.preprocess((v) => {
    if (v && typeof v === "object" && key in v && typeof (v as Record<string, unknown>)[key] === "object")
      return (v as Record<string, unknown>)[key];
    return v;
  }, schema);
}

// ---- bills of lading ----

/** The add dialog's form: a name. */
export const BillOfLadingFormSchema = z.object({ name: bolName() });
/** POST /containers/bill_of_ladings {bill_of_lading: {name}}. */
export const BillOfLadingCreateSchema = wrapped("bill_of_lading", BillOfLadingFormSchema);

/** The edit form: name, contract, assortment, archived (the token is rotated by its own button). */
export const BillOfLadingEditFormSchema = z.object({
  name: bolName(),
  contract_id: nullableFormId().default(null),
  wood_characteristic_id: nullableFormId().default(null),
  archived: bool().default(false),
});
/**
 * PATCH /containers/bill_of_ladings/{id} with name, token, contract_id, wood_characteristic_id or
 * archived (each optional; wrapped in bill_of_lading or flat). Any `token` value rotates the
 * bill's public link: the old token stops at once.
 */
export const BillOfLadingPatchSchema = wrapped(
  "bill_of_lading",
  z
    .strictObject(
      {
        name: bolName().optional(),
        token: z.union([z.boolean(), z.string().max(64), z.null()]).optional(),
        contract_id: nullableFormId().optional(),
        wood_characteristic_id: nullableFormId().optional(),
        archived: bool().optional(),
      },
      { error: (issue) => (issue.code === "unrecognized_keys" ? "containers:errors.unknownField" : undefined) },
    )
    .refine((v) => Object.keys(v).length > 0, { message: "containers:errors.emptyPatch", path: ["_"] }),
);
export type BillOfLadingPatch = z.infer<typeof BillOfLadingPatchSchema>;

// ---- containers ----

/** The add-containers form: one name per line, tare and net weight. */
export const ContainersAddFormSchema = z.object({
  bill_of_lading_id: formId(),
  names: z
    .string({ message: "containers:errors.names" })
    .max(CONTAINERS_PER_ADD * (CONTAINER_NAME_MAX + 2), "containers:errors.tooMany")
    .refine((s) => s.split(/\r?\n/).some((l) => l.trim() !== ""), "containers:errors.names")
    .refine(
      (s) => s.split(/\r?\n/).filter((l) => l.trim() !== "").length <= CONTAINERS_PER_ADD,
      "containers:errors.tooMany",
    )
    .refine((s) => s.split(/\r?\n/).every((l) => l.trim().length <= CONTAINER_NAME_MAX), "containers:errors.tooLong"),
  tare_weight: weightKg().default(null),
  net_weight: weightKg().default(null),
});
/** POST /containers/containers {container: {bill_of_lading_id, name: [...], tare_weight, net_weight}}. */
export const ContainersCreateSchema = wrapped(
  "container",
  z.object({
    bill_of_lading_id: id(),
    name: z
      .array(containerName(), { message: "containers:errors.names" })
      .min(1, "containers:errors.names")
      .max(CONTAINERS_PER_ADD, "containers:errors.tooMany"),
    tare_weight: weightKg().optional(),
    net_weight: weightKg().optional(),
  }),
);
export type ContainersCreate = z.infer<typeof ContainersCreateSchema>;

export function containersFromForm(v: z.infer<typeof ContainersAddFormSchema>): ContainersCreate {
  return {
    bill_of_lading_id: v.bill_of_lading_id,
    name: v.names
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean),
    tare_weight: v.tare_weight,
    net_weight: v.net_weight,
  };
}

/** The container edit form and PATCH /containers/containers/{id} {container: {...}}. */
export const ContainerEditFormSchema = z.object({
  name: containerName(),
  bill_of_lading_id: nullableFormId().default(null),
  seal_number: text(CONTAINER_TEXT_MAX).default(null),
  weight: text(CONTAINER_TEXT_MAX).default(null),
  width: text(CONTAINER_TEXT_MAX).default(null),
  height: text(CONTAINER_TEXT_MAX).default(null),
  tare_weight: weightKg().default(null),
  net_weight: weightKg().default(null),
});
export const ContainerPatchSchema = wrapped(
  "container",
  z
    .strictObject(
      {
        name: containerName().optional(),
        bill_of_lading_id: nullableFormId().optional(),
        seal_number: text(CONTAINER_TEXT_MAX).optional(),
        weight: text(CONTAINER_TEXT_MAX).optional(),
        width: text(CONTAINER_TEXT_MAX).optional(),
        height: text(CONTAINER_TEXT_MAX).optional(),
        tare_weight: weightKg().optional(),
        net_weight: weightKg().optional(),
      },
      { error: (issue) => (issue.code === "unrecognized_keys" ? "containers:errors.unknownField" : undefined) },
    )
    .refine((v) => Object.keys(v).length > 0, { message: "containers:errors.emptyPatch", path: ["_"] }),
);
export type ContainerPatch = z.infer<typeof ContainerPatchSchema>;

// ---- the bill-of-lading filter ----

const idList = () =>
  z.preprocess(
    (v) => {
      if (typeof v === "string")
        return v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => (/^\d{1,18}$/.test(s) ? Number(s) : s));
      if (typeof v === "number") return [v];
      return v;
    },
    z
      .array(
        z.number({ message: "containers:errors.ids" }).int("containers:errors.ids").min(0, "containers:errors.ids"),
        {
          message: "containers:errors.ids",
        },
      )
      .max(CONTAINER_IDS_MAX, "containers:errors.tooMany"),
  );
const num = () =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? Number(v.trim().replace(",", ".")) : v),
    z.number({ message: "containers:errors.number" }).finite("containers:errors.number").optional(),
  );
const date = () => z.preprocess((v) => (v === "" || v === null ? undefined : v), isoDate().optional());
/** A checkbox of the filter: true / false, "true" / "on" from a form, absent or "" for not ticked. */
const flag = () =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v === "true" || v === "on" ? true : v === "false" ? false : v),
    z.boolean({ message: "containers:errors.flag" }).optional(),
  );

/**
 * POST /containers/container_filter: the spec's bill-of-lading filter fields. Those about the
 * measurements (types, species, qualities, assortments, devices, ids, length and volume, dates,
 * shipment number, shipments) keep the bills with a matching container measurement and count only
 * those; `archived` shows the archived bills instead of the active ones. `shipment_ids` keeps the
 * measurements whose shipment number is one of those shipments'. The shared filter's truck fields
 * are read as what they say: a container measurement is neither a truck nor a truck-diameter
 * measurement and has no trailer, so `truck_measurements_only`, `truck_diameter_measurements_only`
 * (booleans, not both) or a `trailer_license_plate` keep no measurement.
 */
export const ContainerFilterSchema = z
  .object({
    measurement_type_ids: idList().optional(),
    wood_quality_ids: idList().optional(),
    wood_type_ids: idList().optional(),
    wood_characteristic_ids: idList().optional(),
    device_ids: idList().optional(),
    measurement_ids: idList().optional(),
    bill_of_lading_ids: idList().optional(),
    length_range_start: num(),
    length_range_end: num(),
    volume_range_start: num(),
    volume_range_end: num(),
    created_at_start: date(),
    created_at_end: date(),
    measured_at_start: date(),
    measured_at_end: date(),
    taken_at_start: date(),
    taken_at_end: date(),
    shipment_number: z.string().trim().max(64, "containers:errors.tooLong").optional(),
    shipment_ids: idList().optional(),
    truck_measurements_only: flag(),
    truck_diameter_measurements_only: flag(),
    trailer_license_plate: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
      z.string({ message: "containers:errors.text" }).trim().max(64, "containers:errors.tooLong").optional(),
    ),
    archived: bool().optional(),
    page: z.preprocess(
      (v) => (typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : v),
      z
        .number({ message: "containers:errors.page" })
        .int("containers:errors.page")
        .min(1, "containers:errors.page")
        .max(100_000, "containers:errors.page")
        .default(1),
    ),
  })
  .superRefine((v, ctx) => {
    // The spec's two "only" checkboxes exclude each other.
    if (v.truck_measurements_only && v.truck_diameter_measurements_only)
      ctx.addIssue({
        code: "custom",
        path: ["truck_diameter_measurements_only"],
        message: "containers:errors.onlyOne",
      });
  });
export type ContainerFilter = z.infer<typeof ContainerFilterSchema>;

// ---- container measurements ----

/**
 * PATCH /containers/measurements/batch_actions {measurement_ids and one of container_id,
 * locked_at or delete}: container_id null takes them out of their container, locked_at null
 * unlocks.
 */
export const ContainerBatchSchema = z
  .object({
    measurement_ids: idList().pipe(z.array(z.number()).min(1, "containers:errors.nothingSelected")),
    container_id: nullableFormId().optional(),
    locked_at: z.preprocess((v) => (v === "" ? null : v), isoDate().nullable()).optional(),
    delete: bool().optional(),
  })
  .superRefine((v, ctx) => {
    const actions = [v.container_id !== undefined, v.locked_at !== undefined, v.delete === true].filter(Boolean);
    if (actions.length !== 1) ctx.addIssue({ code: "custom", path: ["_"], message: "containers:errors.oneAction" });
  });
export type ContainerBatch = z.infer<typeof ContainerBatchSchema>;

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const LogChangeSchema = z.strictObject({
  id: id().optional(),
  x: finite().min(0).optional(),
  y: finite().min(0).optional(),
  r: finite().positive("timber:errors.positive").max(5000).optional(),
  isDeleted: z.boolean().optional(),
});

/**
 * PATCH /containers/measurements/{id}: comment, custom fields, locked_at (any time); logs,
 * logs_removed, references, volume_formula and log_length through the editor, refused while the
 * measurement is locked.
 */
export const ContainerMeasurementPatchSchema = z
  .strictObject(
    {
      comment: z.string().max(5000, "containers:errors.tooLong").nullable().optional(),
      custom_fields: CustomFieldValuesSchema.optional(),
      locked_at: isoDate().nullable().optional(),
      logs: z.array(LogChangeSchema).max(5000).optional(),
      logs_removed: z.array(id()).max(5000).optional(),
      references: z.array(ReferenceSchema).max(20).optional(),
      volume_formula: z.enum(CONTAINER_FORMULAS, { message: "containers:errors.formula" }).optional(),
      log_length: finite().positive("timber:errors.positive").max(30, "timber:errors.logLength").optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "containers:errors.unknownField" : undefined) },
  )
  .refine((v) => Object.keys(v).length > 0, { message: "containers:errors.emptyPatch", path: ["_"] });
export type ContainerMeasurementPatch = z.infer<typeof ContainerMeasurementPatchSchema>;
/** The keys a lock refuses. */
export const GEOMETRY_KEYS = ["logs", "logs_removed", "references", "volume_formula", "log_length"] as const;

/** The detail page's comment form. */
export const ContainerCommentFormSchema = z.object({
  comment: z.string().max(5000, "containers:errors.tooLong").default(""),
});

const optionalId = () => id().nullable().optional();
/** POST /api/device/container_measurements: the `measurement` JSON part (the photo is the other part). */
export const ContainerDeviceMeasurementSchema = z
  .object({
    ...DEVICE_UPLOAD_FIELDS,
    container_id: optionalId(),
    wood_type_id: optionalId(),
    wood_quality_id: optionalId(),
    wood_characteristic_id: optionalId(),
    log_length: finite().positive("timber:errors.positive").max(30, "timber:errors.logLength"),
    volume_formula: z.enum(CONTAINER_FORMULAS, { message: "containers:errors.formula" }).default("jas"),
    logs: z
      .array(
        z.object({
          x: finite().min(0),
          y: finite().min(0),
          r: finite().positive("timber:errors.positive").max(5000),
          isDeleted: z.boolean().optional(),
        }),
      )
      .max(5000)
      .default([]),
    references: z.array(ReferenceSchema).max(20).default([]),
    shipment_number: z.string().trim().max(64, "containers:errors.tooLong").nullable().optional(),
    measured_at: isoDate().nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.logs.length > 0 && v.references.length === 0)
      ctx.addIssue({ code: "custom", path: ["references"], message: "timber:errors.referenceNeeded" });
  });
export type ContainerDeviceMeasurementInput = z.infer<typeof ContainerDeviceMeasurementSchema>;
