import { z } from "zod";
import { MIXED_STACK_CATEGORIES } from "~/domain/mixed-stack";

// Mixed stack reports (docs/decisions/020-mixed-stack-reports.md): the payloads of
// POST/PATCH /mixed_stack_reports (form data or JSON) and of add_measurements /
// remove_measurements, shared by the API routes and the screens' forms.

export const MIXED_STACK_NAME_MAX = 255;
/** decimal(12,2): up to 9 999 999 999.99 t. */
export const MIXED_STACK_TONS_MAX = 9_999_999_999.99;
export const MIXED_STACK_IDS_MAX = 1000;

const name = () =>
  z.string({ message: "mixed-stack:errors.name" }).trim().max(MIXED_STACK_NAME_MAX, "mixed-stack:errors.nameTooLong");

// A form posts text: "" is "not given", "12.5" a number; JSON may send a number or null.
const tons = z.preprocess(
  (v) => (v === "" || v === undefined ? null : typeof v === "string" ? Number(v.trim().replace(",", ".")) : v),
  z
    .number({ message: "mixed-stack:errors.tons" })
    .finite("mixed-stack:errors.tons")
    .min(0, "mixed-stack:errors.tons")
    .max(MIXED_STACK_TONS_MAX, "mixed-stack:errors.tons")
    // Step 0.01: at most two decimals (the column keeps two).
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, "mixed-stack:errors.tonsStep")
    .nullable(),
);

/** POST /mixed_stack_reports {name}: an empty name gets the default name. */
export const MixedStackCreateSchema = z.object({ name: name().optional() });

/** PATCH /mixed_stack_reports/{id} {name, total_delivery_tons}: each optional, the name not empty. */
export const MixedStackPatchSchema = z.object({
  name: name().min(1, "mixed-stack:errors.name").optional(),
  total_delivery_tons: tons.optional(),
});

// Ids as a JSON array, a form's "1,2,3", or one number.
const ids = z.preprocess(
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
      z.number({ message: "mixed-stack:errors.ids" }).int("mixed-stack:errors.ids").positive("mixed-stack:errors.ids"),
      { message: "mixed-stack:errors.ids" },
    )
    .min(1, "mixed-stack:errors.nothingSelected")
    .max(MIXED_STACK_IDS_MAX, "mixed-stack:errors.tooMany"),
);

export const MixedStackAddSchema = z.object({
  category: z.enum(MIXED_STACK_CATEGORIES, { message: "mixed-stack:errors.category" }),
  measurement_ids: ids,
});

export const MixedStackRemoveSchema = z.object({ measurement_ids: ids });
