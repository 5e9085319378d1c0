import type { Selection } from "~/models/export-rows.server";
import { oneMeasurementSuffix, PrintSelectionSchema, timberMeasurementSource } from "./measurement-source.server";
import type { PdfExportType } from "../types";

// measurement_pdf: per measurement the photo with its log overlay, the details and the logs
// sheet, printed by Chromium from app/routes/print.measurements.tsx. Asked for with
// measurement_ids (POST /pdf_exports) or for the measurement of the path (POST /pdf_exports/{id}).

export const measurementPdf: PdfExportType<Selection> = {
  reportType: "measurement_pdf",
  kind: "pdf",
  labelKey: "exports:types.measurement_pdf",
  nameSuffix: oneMeasurementSuffix,
  selectionKeys: ["measurement_ids", "measurement_id"],
  pathKey: "measurement_id",
  selection: PrintSelectionSchema,
  source: timberMeasurementSource({ rows: "measurements", photos: true }),
  printPath: "/print/measurements",
};
