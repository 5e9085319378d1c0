import type { Selection } from "~/models/export-rows.server";
import { truckMeasurementsSource } from "./truck-source.server";
import { oneMeasurementSuffix, PrintSelectionSchema } from "../timber/measurement-source.server";
import type { PdfExportType } from "../types";

// truck_measurement_pdf: per truck measurement an A4 page with its details, its loads with
// their volumes and the total, and the photo, printed by Chromium from
// app/routes/print+/truck_measurements.tsx. Asked for with measurement_ids (POST /pdf_exports)
// or for the truck measurement of the path (POST /pdf_exports/{id}).

export const truckMeasurementPdf: PdfExportType<Selection> = {
  reportType: "truck_measurement_pdf",
  kind: "pdf",
  labelKey: "exports:types.truck_measurement_pdf",
  nameSuffix: oneMeasurementSuffix,
  selectionKeys: ["measurement_ids", "measurement_id"],
  pathKey: "measurement_id",
  selection: PrintSelectionSchema,
  source: truckMeasurementsSource,
  printPath: "/print/truck_measurements",
};
