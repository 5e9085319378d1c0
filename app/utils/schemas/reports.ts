import { z } from "zod";
import { REPORT_FORMULAS } from "~/domain/report";
import { VOLUME_UNITS } from "~/domain/units";

// Reports (docs/decisions/021-reports.md): POST /reports {name, volume_formula, volume_unit,
// reported_at, recipient_registration_code?}, POST /reports/storage/{id} {volume_formula},
// PATCH /reports/{id}/add_measurements {measurement_ids}; shared by the API and the screens.

export const REPORT_NAME_MAX = 255;
/** organizations.registration_code is varchar(64). */
export const REGISTRATION_CODE_MAX = 64;
export const REPORT_IDS_MAX = 5000;
export const REPORT_FORMULA_KEYS = REPORT_FORMULAS as [string, ...string[]];

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DISPLAY_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

/** yyyy-MM-dd (the API, a date input) or dd.MM.yyyy (the spec's display format); yyyy-MM-dd after. */
const day = z
  .string({ message: "reports:errors.reportedAt" })
  .trim()
  .min(1, "reports:errors.reportedAt")
  .max(10, "reports:errors.date")
  .transform((s, ctx) => {
    const display = DISPLAY_DAY.exec(s);
    const iso = display ? `${display[3]}-${display[2].padStart(2, "0")}-${display[1].padStart(2, "0")}` : s;
    const m = ISO_DAY.exec(iso);
    const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
    if (!date || date.toISOString().slice(0, 10) !== iso || iso < "2000-01-01" || iso > "2100-12-31") {
      ctx.addIssue({ code: "custom", message: "reports:errors.date" });
      return z.NEVER;
    }
    return iso;
  });

const formula = z.enum(REPORT_FORMULA_KEYS, { message: "reports:errors.formula" });

export const ReportCreateSchema = z.object({
  name: z
    .string({ message: "reports:errors.name" })
    .trim()
    .min(1, "reports:errors.name")
    .max(REPORT_NAME_MAX, "reports:errors.nameTooLong"),
  volume_formula: formula.default("cylinder"),
  volume_unit: z.enum(VOLUME_UNITS, { message: "reports:errors.unit" }).default("m^3"),
  reported_at: day,
  recipient_registration_code: z
    .string()
    .trim()
    .max(REGISTRATION_CODE_MAX, "reports:errors.codeTooLong")
    .optional()
    .transform((s) => (s ? s : null)),
});

export const ReportStorageSchema = z.object({ volume_formula: formula });

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
    .array(z.number({ message: "reports:errors.ids" }).int("reports:errors.ids").positive("reports:errors.ids"), {
      message: "reports:errors.ids",
    })
    .min(1, "reports:errors.nothingSelected")
    .max(REPORT_IDS_MAX, "reports:errors.tooMany"),
);

export const ReportAddMeasurementsSchema = z.object({ measurement_ids: ids });
