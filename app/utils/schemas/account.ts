import { z } from "zod";
import { MEASUREMENT_MODES } from "~/components/shell/navigation";
import { SUPPORTED_LANGUAGES } from "~/i18n";

export const AccountPatchSchema = z.object({
  user: z
    .object({
      locale: z.enum(SUPPORTED_LANGUAGES).optional(),
      recent_measurement_mode: z.enum(MEASUREMENT_MODES).optional(),
    })
    .strict(),
});
export type AccountPatch = z.infer<typeof AccountPatchSchema>;
