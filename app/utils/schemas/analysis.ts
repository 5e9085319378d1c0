import { z } from "zod";

// The analysis payload (POST /api/web_app/analyze_reports {analyze_report: {...}}) and the
// /analyze_reports/new form, one schema for both. Messages are keys of the "analysis" namespace.

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DISPLAY_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

/** A day as yyyy-MM-dd (the API) or dd.MM.yyyy (the form, the spec's display format); yyyy-MM-dd after. */
const day = () =>
  z
    .string({ message: "analysis:errors.required" })
    .trim()
    .min(1, "analysis:errors.required")
    .max(10, "analysis:errors.date")
    .transform((s, ctx) => {
      const display = DISPLAY_DAY.exec(s);
      const iso = display ? `${display[3]}-${display[2].padStart(2, "0")}-${display[1].padStart(2, "0")}` : s;
      const m = ISO_DAY.exec(iso);
      const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
      if (!date || date.toISOString().slice(0, 10) !== iso || iso < "2000-01-01" || iso > "2100-12-31") {
        ctx.addIssue({ code: "custom", message: "analysis:errors.date" });
        return z.NEVER;
      }
      return iso;
    });

/** Longest period one analysis covers: a year of a large organisation is ~100,000 measurements. */
export const MAX_PERIOD_DAYS = 366;

export const AnalyzeReportSchema = z
  .object({
    name: z
      .string({ message: "analysis:errors.required" })
      .trim()
      .min(1, "analysis:errors.required")
      .max(255, "analysis:errors.tooLong"),
    type_key: z
      .literal("duplicate_storage_measurements", { message: "analysis:errors.type" })
      .default("duplicate_storage_measurements"),
    period_from: day(),
    period_to: day(),
    storage_ids: z
      .array(z.number({ message: "analysis:errors.storage" }).int().positive("analysis:errors.storage"))
      .max(1000)
      .default([]),
    measurement_types: z
      .array(
        z
          .number({ message: "analysis:errors.measurementType" })
          .int()
          .min(0, "analysis:errors.measurementType")
          .max(3, "analysis:errors.measurementType"),
      )
      .max(4)
      .default([]),
  })
  .superRefine((v, ctx) => {
    if (v.period_to < v.period_from) {
      ctx.addIssue({ code: "custom", path: ["period_to"], message: "analysis:errors.periodOrder" });
    } else if (Date.parse(v.period_to) - Date.parse(v.period_from) > MAX_PERIOD_DAYS * 86_400_000) {
      ctx.addIssue({ code: "custom", path: ["period_to"], message: "analysis:errors.periodLength" });
    }
  });

export type AnalyzeReportInput = z.infer<typeof AnalyzeReportSchema>;

/** The API's envelope: the spec sends the fields under analyze_report. */
export const AnalyzeReportRequestSchema = z.object({ analyze_report: AnalyzeReportSchema });
