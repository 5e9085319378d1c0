import { fieldErrors } from "~/utils/api.server";
import { ReportTypeFieldSchema } from "~/utils/schemas/export";
import { billOfLadingInvoiceExcel } from "./containers/bill-of-lading-invoice-excel.server";
import { billOfLadingTallySheetExcel } from "./containers/bill-of-lading-tally-sheet-excel.server";
import { containerDashboardExcel } from "./containers/container-dashboard-excel.server";
import { containerLogByLogExcel } from "./containers/container-log-by-log-excel.server";
import { inventoriesExcel } from "./inventories/inventories-excel.server";
import { qrLabelsPdf } from "./labels/qr-labels-pdf.server";
import { customBillOfLadingExcel } from "./layouts/custom-bill-of-lading-excel.server";
import { customDashboardExcel } from "./layouts/custom-dashboard-excel.server";
import { lumberDashboardExcel } from "./lumber/lumber-dashboard-excel.server";
import { mixedStackReportExcel } from "./mixed-stack/mixed-stack-report-excel.server";
import { iglExcel } from "./reports/igl-excel.server";
import { reportInvoiceExcel } from "./reports/report-invoice-excel.server";
import { reportLogByLogExcel } from "./reports/report-log-by-log-excel.server";
import { reportPdf } from "./reports/report-pdf.server";
import { reportTallySheetExcel } from "./reports/report-tally-sheet-excel.server";
import { reportsExcel } from "./reports/reports-excel.server";
import { dashboardExcel } from "./timber/dashboard-excel.server";
import { logByLogExcel } from "./timber/log-by-log-excel.server";
import { measurementPdf } from "./timber/measurement-pdf.server";
import { preciseLogByLogExcel } from "./timber/precise-log-by-log-excel.server";
import { palmakoExcel } from "./trucks/palmako-excel.server";
import { truckDashboardExcel } from "./trucks/truck-dashboard-excel.server";
import { truckMeasurementPdf } from "./trucks/truck-measurement-pdf.server";
import { SELECTION_KEYS, type ExportKind, type ExportType } from "./types";
import { woodYardLogExcel } from "./wood-yard/wood-yard-log-excel.server";
import { woodYardSummaryExcel } from "./wood-yard/wood-yard-summary-excel.server";

// Every report type the product makes. A new type is a module (see types.ts and
// docs/decisions/008-export-types-and-measurement-kinds.md) and one line here.
export const EXPORT_TYPES: readonly ExportType[] = [
  dashboardExcel,
  logByLogExcel,
  preciseLogByLogExcel,
  measurementPdf,
  lumberDashboardExcel,
  inventoriesExcel,
  mixedStackReportExcel,
  billOfLadingTallySheetExcel,
  billOfLadingInvoiceExcel,
  containerDashboardExcel,
  containerLogByLogExcel,
  truckDashboardExcel,
  palmakoExcel,
  truckMeasurementPdf,
  woodYardLogExcel,
  woodYardSummaryExcel,
  qrLabelsPdf,
  reportsExcel,
  reportPdf,
  reportInvoiceExcel,
  reportTallySheetExcel,
  reportLogByLogExcel,
  iglExcel,
  customDashboardExcel,
  customBillOfLadingExcel,
];

/**
 * The report types of the spec (measuring.md, "Calls"), registered or not. One asked for
 * before its module exists answers 422 notAvailable, which says more than "unknown type". The
 * customer-specific ones (identifiers withheld by the spec) join when their modules do.
 */
export const SPEC_REPORT_TYPES: Readonly<Record<ExportKind, readonly string[]>> = {
  excel: [
    "dashboard_excel",
    "truck_dashboard_excel",
    "lumber_dashboard_excel",
    "container_dashboard_excel",
    "container_log_by_log_excel",
    "inventories_excel",
    "log_by_log_excel",
    "precise_log_by_log_excel",
    "bill_of_lading_invoice_excel",
    "bill_of_lading_tally_sheet_excel",
    "reports_excel",
    "mixed_stack_report_excel",
    "palmako_excel",
  ],
  pdf: ["measurement_pdf", "truck_measurement_pdf"],
};

export function findExportType(reportType: string, registry: readonly ExportType[] = EXPORT_TYPES) {
  return registry.find((type) => type.reportType === reportType);
}

export type ExportRefusal = {
  error: "validation_failed" | "feature_unavailable";
  feature?: string;
  errors: Record<string, string[]>;
};

export type ParsedExportRequest =
  { ok: true; type: ExportType; selection: unknown } | { ok: false; refusal: ExportRefusal };

const refuse = (key: string, message: string): ParsedExportRequest => ({
  ok: false,
  refusal: { error: "validation_failed", errors: { [key]: [message] } },
});

/**
 * Reads the body of POST /excel_exports or /pdf_exports (kind) against the registry. Refusals
 * come in the order the caller meets them, each a 422: a report type this call does not make
 * (reportType, or notAvailable for one of the spec's types not made yet), a feature the
 * organisation lacks (featureUnavailable), then the selection: ids the type does not take
 * (unsupportedSelection) and its own schema's errors, all at once.
 * `pathId` is the {id} of POST /pdf_exports/{id}: it becomes the type's pathKey and the body's
 * own ids are ignored.
 */
export function parseExportRequest(
  kind: ExportKind,
  body: Record<string, unknown>,
  features: readonly string[],
  opts: { pathId?: number; registry?: readonly ExportType[] } = {},
): ParsedExportRequest {
  const name = ReportTypeFieldSchema.safeParse(body.report_type);
  if (!name.success) return refuse("report_type", "exports:errors.reportType");
  const type = findExportType(name.data, opts.registry);
  if (!type || type.kind !== kind) {
    const planned = !type && SPEC_REPORT_TYPES[kind].includes(name.data);
    return refuse("report_type", planned ? "exports:errors.notAvailable" : "exports:errors.reportType");
  }
  if (type.feature && !features.includes(type.feature)) {
    return {
      ok: false,
      refusal: {
        error: "feature_unavailable",
        feature: type.feature,
        errors: { report_type: ["exports:errors.featureUnavailable"] },
      },
    };
  }

  let input = body;
  if (opts.pathId !== undefined) {
    if (!type.pathKey) return refuse("report_type", "exports:errors.reportType");
    input = Object.fromEntries(
      Object.entries(body).filter(([key]) => !(SELECTION_KEYS as readonly string[]).includes(key)),
    );
    input[type.pathKey] = opts.pathId;
  }
  const errors: Record<string, string[]> = {};
  for (const key of SELECTION_KEYS) {
    if (input[key] !== undefined && !type.selectionKeys.includes(key))
      errors[key] = ["exports:errors.unsupportedSelection"];
  }
  const parsed = type.selection.safeParse(input);
  if (!parsed.success) {
    for (const [key, messages] of Object.entries(fieldErrors(parsed.error))) (errors[key] ??= []).push(...messages);
  }
  if (Object.keys(errors).length || !parsed.success)
    return { ok: false, refusal: { error: "validation_failed", errors } };
  return { ok: true, type, selection: parsed.data };
}
