import { DASH, isoDayToDisplay, reportInvoiceLines, volumeUnitLabel } from "~/domain";
import { reportParties, type ReportParty } from "~/models/report-lookups.server";
import { readReportFor } from "~/models/report.server";
import { bold, documentSheet, formats, labelled, MONEY, VOLUME, writeDocument } from "./report-document.server";
import { reportSource, reportSuffix, ReportSelectionSchema, type ReportSelection } from "./report-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { TFunction } from "i18next";
import type { Writable } from "node:stream";

// report_invoice_excel (entitlement bill_of_lading_invoice, docs/decisions/026): the report as an
// invoice from its organisation (seller) to its recipient (buyer): number R-{report id}, the
// report's date, both parties with address, VAT code and registration code, one line per
// assortment (logs, quantity and unit the price applies to, unit price, amount), the net total in
// the seller's currency. Lines and amounts are the report's own (app/domain/report.ts
// reportInvoiceLines over the stored tallies), so the total is the report screen's total value.
// No VAT rate is known to the product: amounts are net, the parties' VAT codes identify them.

export const reportInvoiceExcel: ExcelExportType<ReportSelection> = {
  reportType: "report_invoice_excel",
  kind: "excel",
  labelKey: "exports:types.report_invoice_excel",
  nameSuffix: reportSuffix,
  feature: "bill_of_lading_invoice",
  selectionKeys: ["report_id"],
  selection: ReportSelectionSchema,
  source: reportSource((params) => ReportSelectionSchema.parse(params)),
  write: (out, ctx) => writeInvoice(out, ctx),
};

function partyRows(ws: Parameters<typeof labelled>[0], t: TFunction, title: string, party: ReportParty | null) {
  bold(ws.addRow([title, party?.name ?? DASH]));
  labelled(ws, t("reports:files.address"), party?.address ?? DASH);
  labelled(ws, t("reports:files.vatCode"), party?.vat_code ?? DASH);
  labelled(ws, t("reports:files.registrationCode"), party?.registration_code ?? DASH);
}

async function writeInvoice(out: Writable, ctx: ExcelWriteContext<ReportSelection>) {
  const { t } = ctx;
  const report = await readReportFor(ctx.db, ctx.organizationId, ctx.selection.report_id);
  if (!report?.details) throw new Error("report gone");
  const { seller, buyer } = await reportParties(ctx.db, report);
  const currency = seller.currency;
  const invoice = reportInvoiceLines(report.details, report.volume_unit);
  const { wb, ws } = documentSheet(t("reports:files.invoice"), [30, 10, 14, 10, 14, 16]);

  const title = ws.addRow([t("reports:files.invoice")]);
  title.font = { bold: true, size: 14 };
  labelled(ws, t("reports:files.invoiceNumber"), `R-${report.id}`);
  labelled(ws, t("reports:files.date"), isoDayToDisplay(report.reported_at));
  labelled(ws, t("reports:fields.name"), report.name);
  labelled(ws, t("reports:files.currency"), currency);
  ws.addRow([]);
  partyRows(ws, t, t("reports:files.seller"), seller);
  ws.addRow([]);
  partyRows(ws, t, t("reports:files.buyer"), buyer);
  ws.addRow([]);

  bold(
    ws.addRow([
      t("reports:detail.characteristic"),
      t("reports:detail.logCount"),
      t("reports:files.quantity"),
      t("reports:files.unit"),
      t("reports:files.unitPrice", { currency }),
      t("reports:files.amount", { currency }),
    ]),
  );
  for (const line of invoice.lines) {
    const unit = line.quantity_unit === "log" ? t("reports:files.perLogUnit") : volumeUnitLabel(line.quantity_unit);
    formats(
      ws.addRow([
        line.name,
        line.log_count,
        line.basis === "none" ? null : line.quantity,
        line.basis === "none" ? null : unit,
        line.unit_price,
        line.amount,
      ]),
      { 3: line.quantity_unit === "log" ? "0" : VOLUME, 5: MONEY, 6: MONEY },
    );
  }
  const totalRow = bold(ws.addRow([t("reports:files.netTotal"), null, null, null, null, invoice.net]));
  formats(totalRow, { 6: MONEY });
  ws.addRow([]);
  ws.addRow([t("reports:files.vatNote")]);
  const unpriced = report.details.totals.log_count - invoice.lines.reduce((s, l) => s + l.log_count, 0);
  if (unpriced > 0) ws.addRow([t("reports:files.notInvoiced", { logs: unpriced })]);
  await writeDocument(out, wb);
  return { rowCount: invoice.lines.length };
}
