import { z } from "zod";
import { isSaneDate } from "./limits";

// Pieces every measurement kind's payloads share. Messages are translation keys of the "timber"
// namespace, which every measurement screen loads.

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const id = () => z.number({ message: "timber:errors.id" }).int("timber:errors.id").positive("timber:errors.id");

export const CustomFieldValuesSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "timber:errors.customFieldKey"),
  z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()]),
);

/** An ISO date-time string, read as a Date. */
export const isoDate = () =>
  z
    .string({ message: "timber:errors.date" })
    .refine((s) => isSaneDate(new Date(s)), "timber:errors.date")
    .transform((s) => new Date(s));

/** Measurement types 0-3: stock, incoming, outgoing, control. */
export const measurementType = () =>
  z
    .number({ message: "timber:errors.measurementType" })
    .int()
    .min(0, "timber:errors.measurementType")
    .max(3, "timber:errors.measurementType");

/**
 * The fields of every kind's device upload (the `measurement` JSON part), which the upload
 * envelope relies on (client_id, storage_id); a kind's schema spreads them and adds its own.
 */
export const DEVICE_UPLOAD_FIELDS = {
  client_id: z.string({ message: "timber:errors.required" }).trim().min(1, "timber:errors.required").max(64),
  taken_at: isoDate(),
  latitude: finite().min(-90, "timber:errors.latitude").max(90, "timber:errors.latitude").nullable().optional(),
  longitude: finite().min(-180, "timber:errors.longitude").max(180, "timber:errors.longitude").nullable().optional(),
  storage_id: id(),
  measurement_type_id: measurementType().default(0),
  comment: z.string().max(5000).nullable().optional(),
  custom_fields: CustomFieldValuesSchema.default({}),
};
