import { z } from "zod";
import { DEVICE_UPLOAD_FIELDS } from "./measurement";

// Payloads of the lumber calls: device uploads, plank edits and the search and delete bodies. Messages are
// translation keys of the "timber" namespace, as the timber schemas' are.

export const PLANK_LIMIT = 5000;

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const id = () => z.number({ message: "timber:errors.id" }).int("timber:errors.id").positive("timber:errors.id");
/** A corner coordinate in image pixels. */
const coordinate = () => finite().min(0, "timber:errors.nonNegative").max(100_000, "timber:errors.plankOutsidePhoto");
/** A side in image pixels. */
const side = () => finite().positive("timber:errors.positive").max(100_000, "timber:errors.plankOutsidePhoto");

/** Strict objects name an unknown key with a translation key too. */
const unknownField = {
  error: (issue: { code?: string }) => (issue.code === "unrecognized_keys" ? "timber:errors.unknownField" : undefined),
};

/** One plank change: with an id it moves or resizes that plank; without one it is a new plank. */
export const PlankInputSchema = z.strictObject(
  {
    id: id().optional(),
    x: coordinate().optional(),
    y: coordinate().optional(),
    width: side().optional(),
    height: side().optional(),
  },
  unknownField,
);
export type PlankInput = z.infer<typeof PlankInputSchema>;

export const isNewPlankComplete = (p: PlankInput) =>
  p.x !== undefined && p.y !== undefined && p.width !== undefined && p.height !== undefined;

/** PATCH /lumber_measurements/{id}: {planks?, planks_removed?}; the server recounts and recomputes. */
export const LumberPatchSchema = z
  .strictObject(
    {
      planks: z
        .array(PlankInputSchema)
        .max(PLANK_LIMIT, "timber:errors.tooManyPlanks")
        .superRefine((items, ctx) => {
          items.forEach((p, i) => {
            if (p.id === undefined && !isNewPlankComplete(p))
              ctx.addIssue({ code: "custom", path: [i], message: "timber:errors.plankNeedsXYWH" });
          });
        })
        .optional(),
      planks_removed: z.array(id()).max(PLANK_LIMIT, "timber:errors.tooManyPlanks").optional(),
    },
    unknownField,
  )
  .refine((v) => Object.keys(v).length > 0, { message: "timber:errors.emptyPatch", path: ["_"] });
export type LumberPatch = z.infer<typeof LumberPatchSchema>;

/** Ids as a list or as "1,2,3" (the spec's measurement id filter accepts comma-separated ids). */
const idList = () =>
  z.preprocess(
    (v) =>
      typeof v === "string" && /^\s*\d{1,18}\s*(,\s*\d{1,18}\s*)*$/.test(v)
        ? v.split(",").map((x) => Number(x.trim()))
        : v,
    z.array(id(), { message: "timber:errors.idList" }).max(1000, "timber:errors.idList"),
  );

/** POST /lumber_measurements/search {storage_id, measurement_ids, page}: 5 per page. */
export const LumberSearchSchema = z.object({
  storage_id: id().optional(),
  measurement_ids: idList().optional(),
  page: z
    .number({ message: "timber:errors.number" })
    .int("timber:errors.number")
    .min(1, "timber:errors.number")
    .max(100_000, "timber:errors.number")
    .default(1),
});
export type LumberSearch = z.infer<typeof LumberSearchSchema>;

/** DELETE /lumber_measurements {measurement_ids}: soft delete. */
export const LumberIdsSchema = z.object({
  measurement_ids: z.array(id()).min(1, "timber:errors.nothingSelected").max(1000),
});

/** A plank of a device upload: its rectangle on the photo. */
export const UploadedPlankSchema = z.strictObject(
  { x: coordinate(), y: coordinate(), width: side(), height: side() },
  unknownField,
);

/** The JSON part of a lumber device upload (the package-end photo travels beside it). */
export const LumberDeviceMeasurementSchema = z.object({
  ...DEVICE_UPLOAD_FIELDS,
  lumber_product_id: id().nullable().optional(),
  planks: z.array(UploadedPlankSchema).max(PLANK_LIMIT, "timber:errors.tooManyPlanks").default([]),
});
export type LumberDeviceMeasurementInput = z.infer<typeof LumberDeviceMeasurementSchema>;
