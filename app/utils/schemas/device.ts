import { z } from "zod";

export const DevicePairingSchema = z.object({
  activation_code: z.string().trim().min(4).max(16),
  hw_id: z.string().trim().min(1).max(255),
  name: z.string().trim().min(1).max(255),
});

const storageIds = z.array(z.coerce.number().int().positive()).max(1000).nullable();

const deviceName = z
  .string({ message: "accounts:devices.nameRequired" })
  .trim()
  .min(1, "accounts:devices.nameRequired")
  .max(255);
const affiliation = z
  .string()
  .trim()
  .max(255)
  .transform((v) => (v === "" ? null : v))
  .nullable();

/** The device screen's details form: the same name and affiliation rules as PATCH /devices/{id}. */
export const DeviceDetailsSchema = z.object({ name: deviceName, affiliation: affiliation.optional() });

/** PATCH /devices/{id}: device{name, affiliation} or device{storage_ids, default_storage_id?} (storage_ids null or [] = all storages). */
export const DevicePatchSchema = z.object({
  device: z
    .object({
      name: deviceName.optional(),
      affiliation: affiliation.optional(),
      storage_ids: storageIds.optional(),
      default_storage_id: z.coerce.number().int().positive().nullable().optional(),
    })
    .strict()
    .refine((d) => Object.keys(d).length > 0, "accounts:devices.nothingToChange"),
});
