import type { Selection } from "~/models/export-rows.server";
import { writeLogByLog } from "./log-by-log-excel.server";
import {
  IdsOrFiltersSelectionSchema,
  oneMeasurementSuffix,
  timberMeasurementSource,
} from "./measurement-source.server";
import type { ExcelExportType } from "../types";

// precise_log_by_log_excel: the log-by-log rows with the stored values unrounded (diameter and
// volume as the domain computed them, shown with 3 and 6 decimals) plus the raw pixel circle
// (x, y, r in image pixels): what an auditor or a reprocessing tool needs.
// A paid feature: the dashboard shows its button only with it, and the call refuses without it.

export const preciseLogByLogExcel: ExcelExportType<Selection> = {
  reportType: "precise_log_by_log_excel",
  kind: "excel",
  feature: "precise_log_by_log_excel",
  labelKey: "exports:types.precise_log_by_log_excel",
  nameSuffix: oneMeasurementSuffix,
  selectionKeys: ["measurement_ids", "measurement_id", "storage_id"],
  selection: IdsOrFiltersSelectionSchema,
  source: timberMeasurementSource({ rows: "logs" }),
  write: (out, ctx) => writeLogByLog(out, ctx, true),
};
