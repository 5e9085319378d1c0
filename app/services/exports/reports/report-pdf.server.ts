import { reportSource, reportSuffix, ReportSelectionSchema, type ReportSelection } from "./report-source.server";
import type { PdfExportType } from "../types";

// report_pdf (docs/decisions/026): the report as its page shows it, on A4: heading (report, date,
// formula, unit, parties), the tallies by the same component as the screen (logs by diameter,
// assortments with prices and value, culls) and its measurements' thumbnails; printed by Chromium
// from app/routes/print+/reports.tsx. Asked for with report_id (POST /pdf_exports) or for the
// report of the path (POST /pdf_exports/{id}).

export const reportPdf: PdfExportType<ReportSelection> = {
  reportType: "report_pdf",
  kind: "pdf",
  labelKey: "exports:types.report_pdf",
  nameSuffix: reportSuffix,
  feature: "reports",
  selectionKeys: ["report_id"],
  pathKey: "report_id",
  selection: ReportSelectionSchema,
  source: reportSource((params) => ReportSelectionSchema.parse(params)),
  printPath: "/print/reports",
};
