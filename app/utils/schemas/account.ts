import { z } from "zod";
import { VOLUME_UNITS } from "~/domain/units";
import { SUPPORTED_LANGUAGES } from "~/i18n";
import { MEASUREMENT_MODES } from "~/utils/measurement-modes";
import { TIME_ZONES } from "~/utils/time-zones";

export const SETTINGS_VOLUME_UNITS = VOLUME_UNITS;
export const LENGTH_UNITS = ["m", "cm", "mm", "ft", "in"] as const;
export const DIAMETER_UNITS = ["cm", "mm", "in"] as const;
export const WEIGHT_UNITS = ["kg", "t", "lb"] as const;
export const DENSITY_UNITS = ["kg/m^3", "t/m^3", "m^3/t", "lb/ft^3"] as const;

const precision = z.coerce
  .number({ error: "accounts:settings.precisionRange" })
  .int()
  .min(1, "accounts:settings.precisionRange")
  .max(4, "accounts:settings.precisionRange");

/** The preferences of the settings profile form (also PATCH /account). */
export const AccountSettingsSchema = z.object({
  name: z.string().trim().min(1, "accounts:settings.nameRequired").max(255).optional(),
  locale: z.enum(SUPPORTED_LANGUAGES).optional(),
  time_zone: z.enum(TIME_ZONES, { error: "accounts:settings.timeZoneInvalid" }).optional(),
  volume_unit: z.enum(SETTINGS_VOLUME_UNITS).optional(),
  length_unit: z.enum(LENGTH_UNITS).optional(),
  diameter_unit: z.enum(DIAMETER_UNITS).optional(),
  weight_unit: z.enum(WEIGHT_UNITS).optional(),
  density_unit: z.enum(DENSITY_UNITS).optional(),
  rounding_precision: precision.optional(),
  recent_measurement_mode: z.enum(MEASUREMENT_MODES).optional(),
});

/** The account settings profile form: the same preferences, the name required (an emptied field is not "unchanged"). */
export const AccountSettingsFormSchema = AccountSettingsSchema.extend({
  name: z.string({ error: "accounts:settings.nameRequired" }).trim().min(1, "accounts:settings.nameRequired").max(255),
});

export const AccountPatchSchema = z.object({ user: AccountSettingsSchema.strict() });
export type AccountPatch = z.infer<typeof AccountPatchSchema>;
