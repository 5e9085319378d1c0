import { z } from "zod";
import { DashboardFilterSchema } from "./timber";

// Pieces of the export payloads (POST /excel_exports, /pdf_exports, /pdf_exports/{id}). Each
// report type's own selection schema is built from them in its module under
// app/services/exports/. Form posts (the ExportButton without JavaScript) send ids
// comma-separated; JSON sends arrays.

export const ExportIdSchema = z.coerce.number().int().positive();

/** An id list: [1, 2] or "1,2" (an empty string is an empty list, which the types refuse). */
export const IdListSchema = z.preprocess((value) => {
  if (typeof value === "string")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof value === "number") return [value];
  return value;
}, z.array(ExportIdSchema).max(100_000));

/** The first field every export body has; what it names is the registry's business. */
export const ReportTypeFieldSchema = z.string().trim().min(1).max(64);

/**
 * The dashboard filter of a request that selects by it. The dashboard sends its query string's
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
