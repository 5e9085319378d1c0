import { DashboardFilterSchema } from "./timber";
import { z } from "zod";

// Payloads of POST /excel_exports, POST /pdf_exports and POST /pdf_exports/{id}. Form posts
// (the ExportButton without JavaScript) send ids comma-separated; JSON sends arrays.

export const EXCEL_REPORT_TYPES = ["dashboard_excel", "log_by_log_excel", "precise_log_by_log_excel"] as const;
export type ExcelReportType = (typeof EXCEL_REPORT_TYPES)[number];
export const PDF_REPORT_TYPES = ["measurement_pdf"] as const;
export type PdfReportType = (typeof PDF_REPORT_TYPES)[number];
export type ReportType = ExcelReportType | PdfReportType;

const id = z.coerce.number().int().positive();

/** An id list: [1, 2] or "1,2" (an empty string is an empty list, which the rules refuse). */
export const IdListSchema = z.preprocess((value) => {
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
  if (typeof value === "number") return [value];
  return value;
}, z.array(id).max(100_000));

// Spec: one of these ids comes with the report type. The last five belong to report types of
// other areas; they are accepted by the schema and refused by the rules below until then.
const OTHER_IDS = ["container_id", "inventory_id", "bill_of_lading_id", "report_id", "mixed_stack_report_id"] as const;

const LOG_BY_LOG_TYPES: readonly string[] = ["log_by_log_excel", "precise_log_by_log_excel"];

export const ExcelExportSchema = z
  .looseObject({
    report_type: z.enum(EXCEL_REPORT_TYPES, { error: "exports:errors.reportType" }),
    measurement_ids: IdListSchema.optional(),
    measurement_id: id.optional(),
    storage_id: id.optional(),
    container_id: id.optional(),
    inventory_id: id.optional(),
    bill_of_lading_id: id.optional(),
    report_id: id.optional(),
    mixed_stack_report_id: id.optional(),
  })
  .superRefine((body, ctx) => {
    for (const key of OTHER_IDS) {
      if (body[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: "exports:errors.unsupportedSelection" });
    }
    if (body.measurement_ids && body.measurement_ids.length === 0) {
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    }
    const given = [body.measurement_ids, body.measurement_id, body.storage_id].filter((v) => v !== undefined).length;
    // The dashboard's Excel, and the log-by-log ones asked for without ids, take its filters.
    if (body.report_type === "dashboard_excel" || (given === 0 && body.report_type !== undefined && LOG_BY_LOG_TYPES.includes(body.report_type))) {
      // The dashboard's filters are the selection, read by the dashboard's own schema.
      const filter = dashboardFilterFromBody(body);
      if (!filter.success) for (const issue of filter.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return;
    }
    if (given === 0) ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    if (given > 1) ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.oneSelection" });
  });
export type ExcelExportInput = z.infer<typeof ExcelExportSchema>;

/** Whether an Excel request selects by the dashboard's filters rather than by ids. */
export function selectsByFilters(input: { report_type: string; measurement_ids?: unknown; measurement_id?: unknown; storage_id?: unknown }) {
  if (input.report_type === "dashboard_excel") return true;
  const given = [input.measurement_ids, input.measurement_id, input.storage_id].some((v) => v !== undefined);
  return !given && LOG_BY_LOG_TYPES.includes(input.report_type);
}

/**
 * The dashboard filter of a dashboard_excel request. The dashboard sends its query string's
 * values; API clients may send lists as arrays and numbers as numbers: both are read alike.
 */
export function dashboardFilterFromBody(body: Record<string, unknown>) {
  const raw: Record<string, unknown> = {};
  const custom: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null || value === "") continue;
    const cf = /^custom_fields\[(.+)\]$/.exec(key);
    if (cf) custom[cf[1]] = String(value);
    else if (key === "custom_fields" && typeof value === "object") Object.assign(custom, value);
    else if (key in DashboardFilterSchema.shape) raw[key] = Array.isArray(value) ? value.join(",") : String(value);
  }
  if (Object.keys(custom).length) raw.custom_fields = custom;
  return DashboardFilterSchema.safeParse(raw);
}

/** A print page holds every photo inline: past this many measurements, ask for several PDFs. */
export const PDF_MAX_MEASUREMENTS = 200;

export const PdfExportSchema = z.object({
  report_type: z.enum(PDF_REPORT_TYPES, { error: "exports:errors.reportType" }),
  measurement_ids: IdListSchema.refine((ids) => ids.length > 0, "exports:errors.emptySelection").refine(
    (ids) => ids.length <= PDF_MAX_MEASUREMENTS,
    "exports:errors.tooManyForPdf",
  ),
});

export const PdfExportOneSchema = z.object({
  report_type: z.enum(PDF_REPORT_TYPES, { error: "exports:errors.reportType" }),
});
