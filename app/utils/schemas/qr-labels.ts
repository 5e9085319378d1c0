import { z } from "zod";
import { IdListSchema } from "./export";

// QR labels (feature qr_code): which storages and measurements get a label, and the sheet they
// are printed on. One schema for the labels screen (conform) and POST /pdf_exports
// (report_type qr_labels_pdf).

/** A4 label sheets: columns × rows, edge to edge (the print has no page margin). */
export const LABEL_SIZES = {
  a4_2x5: { columns: 2, rows: 5 },
  a4_3x8: { columns: 3, rows: 8 },
} as const;
export type LabelSize = keyof typeof LABEL_SIZES;
export const LABEL_SIZE_KEYS = Object.keys(LABEL_SIZES) as [LabelSize, ...LabelSize[]];
/** At most this many labels in one PDF (ten sheets of the smallest labels). */
export const MAX_LABELS = 240;

const OptionalIds = z.preprocess((v) => (v === "" || v === null ? undefined : v), IdListSchema.optional());

export const QrLabelsSchema = z
  .object({
    storage_ids: OptionalIds,
    measurement_ids: OptionalIds,
    label_size: z.enum(LABEL_SIZE_KEYS, { message: "exports:errors.labelSize" }),
  })
  .superRefine((v, ctx) => {
    const count = new Set(v.storage_ids).size + new Set(v.measurement_ids).size;
    if (count === 0) ctx.addIssue({ code: "custom", path: ["storage_ids"], message: "exports:errors.noLabels" });
    if (count > MAX_LABELS)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.tooManyLabels" });
  })
  .transform((v) => ({
    storage_ids: [...new Set(v.storage_ids ?? [])],
    measurement_ids: [...new Set(v.measurement_ids ?? [])],
    label_size: v.label_size,
  }));
export type QrLabelsSelection = z.output<typeof QrLabelsSchema>;
