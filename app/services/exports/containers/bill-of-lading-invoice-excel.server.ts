import { z } from "zod";
import { billOfLadingInvoice, volumeUnitLabel } from "~/domain";
import {
  billForInvoice,
  billVolumesByAssortment,
  invoiceAssortments,
  invoiceOrganization,
} from "~/models/container-export.server";
import { billOfLadingExists } from "~/models/container.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { ExportIdSchema } from "~/utils/schemas/export";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// bill_of_lading_invoice_excel (docs/decisions/026-exports-and-labels.md, "Container exports"):
// one bill of lading's JAS volume by assortment (the measurement's, else the bill's), each line
// priced from its assortment, the total in the organisation's currency. The money math is
// app/domain/container-invoice.ts. Behind the Container plan's entitlement
// `bill_of_lading_invoice` (decision 003). The rows are one grouped query: a line per assortment.

export type InvoiceSelection = { bill_of_lading_id: number };

const InvoiceSelectionSchema = z.object({ bill_of_lading_id: ExportIdSchema });

const invoiceSource: RowSource<InvoiceSelection> = {
  async request(db, ctx, selection) {
    if (!(await billOfLadingExists(db, ctx.organizationId, selection.bill_of_lading_id))) return "not_found";
    return { selection, count: 1 };
  },
  revive: (params) => InvoiceSelectionSchema.parse(params),
  async prepare(db, organizationId, selection) {
    if (!(await billOfLadingExists(db, organizationId, selection.bill_of_lading_id)))
      return { records: 0, expectedRows: 0, leftOut: [] };
    return { records: 1, expectedRows: 1, leftOut: [] };
  },
};

export const billOfLadingInvoiceExcel: ExcelExportType<InvoiceSelection> = {
  reportType: "bill_of_lading_invoice_excel",
  kind: "excel",
  labelKey: "exports:types.bill_of_lading_invoice_excel",
  nameSuffix: (selection) => `#${selection.bill_of_lading_id}`,
  feature: "bill_of_lading_invoice",
  selectionKeys: ["bill_of_lading_id"],
  selection: InvoiceSelectionSchema,
  source: invoiceSource,
  write: (out, ctx) => writeInvoice(out, ctx),
};

async function writeInvoice(out: Writable, ctx: ExcelWriteContext<InvoiceSelection>) {
  const { t, db } = ctx;
  const scope = { organizationId: ctx.organizationId };
  const billId = ctx.selection.bill_of_lading_id;
  const [bill, org, assortments, volumes] = await Promise.all([
    billForInvoice(db, scope, billId),
    invoiceOrganization(db, scope),
    invoiceAssortments(db, scope),
    billVolumesByAssortment(db, scope, billId),
  ]);
  if (!bill) throw new Error("bill of lading gone");
  const invoice = billOfLadingInvoice(
    volumes,
    assortments.map((a) => ({
      id: a.id,
      name: a.name,
      priceCents: a.price_cents,
      pricePerLogCents: a.price_per_log_cents,
      volumeUnit: a.volume_unit,
    })),
    bill.wood_characteristic_id,
  );
  const currency = org.currency;
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("containers:excel.sheets.invoice"), [
    { header: t("containers:excel.columns.assortment"), kind: "text", width: 28 },
    { header: t("containers:excel.columns.logs"), kind: "int", width: 10 },
    { header: t("containers:excel.columns.volume"), kind: "number", numFmt: "0.0000", width: 14 },
    { header: t("containers:excel.columns.quantity"), kind: "number", numFmt: "0.0000", width: 14 },
    { header: t("containers:excel.columns.priceUnit"), kind: "text", width: 12 },
    { header: t("containers:excel.columns.unitPrice", { currency }), kind: "number", numFmt: "0.00", width: 16 },
    { header: t("containers:excel.columns.amount", { currency }), kind: "number", numFmt: "0.00", width: 16 },
  ]);
  for (const line of invoice.lines) {
    sheet.add([
      line.name ?? t("containers:excel.withoutAssortment"),
      line.logCount,
      line.volumeM3,
      line.pricedQuantity,
      line.priceBasis === null
        ? null
        : line.priceBasis === "log"
          ? t("containers:excel.perLog")
          : volumeUnitLabel(line.priceBasis),
      line.unitPriceCents === null ? null : line.unitPriceCents / 100,
      line.valueCents / 100,
    ]);
  }
  sheet.add([
    t("containers:excel.total"),
    invoice.logCount,
    invoice.volumeM3,
    null,
    null,
    null,
    invoice.totalCents / 100,
  ]);
  sheet.commit();

  const head = new SheetWriter(wb, t("containers:excel.sheets.invoiceDetails"), [
    { header: t("containers:excel.columns.field"), kind: "text", width: 24 },
    { header: t("containers:excel.columns.value"), kind: "text", width: 40 },
  ]);
  head.add([t("containers:excel.details.billOfLading"), bill.name]);
  head.add([t("containers:excel.details.contract"), bill.contract_name]);
  head.add([t("containers:excel.details.seller"), org.name]);
  head.add([t("containers:excel.details.registrationCode"), org.registration_code]);
  head.add([t("containers:excel.details.vatCode"), org.vat_code]);
  head.add([t("containers:excel.details.address"), org.address]);
  head.add([t("containers:excel.details.currency"), currency]);
  head.commit();
  await wb.commit();
  await ctx.onProgress(0.99);
  return { rowCount: sheet.count };
}
