import { z } from "zod";

// The analysis payload (POST /api/web_app/analyze_reports {analyze_report: {...}}) and the
// /analyze_reports/new form, one schema for both. Messages are keys of the "analysis" namespace.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = () =>
  z
    .string({ message: "analysis:errors.required" })
    .trim()
    .min(1, "analysis:errors.required")
    .max(10, "analysis:errors.date")
    .refine((s) => DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "analysis:errors.date")
    .refine((s) => s >= "2000-01-01" && s <= "2100-12-31", "analysis:errors.date");

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
