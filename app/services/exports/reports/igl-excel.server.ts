import { DASH, isoDayToDisplay, reportDeliveryBlocks, volumeUnitLabel } from "~/domain";
import { reportParties } from "~/models/report-lookups.server";
import { readReportFor } from "~/models/report.server";
import { bold, documentSheet, formats, labelled, MONEY, VOLUME, writeDocument } from "./report-document.server";
import { reportSource, reportSuffix, ReportSelectionSchema, type ReportSelection } from "./report-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { TFunction } from "i18next";
import type { Writable } from "node:stream";

// igl_excel (entitlement igl_excel, docs/decisions/026). The spec withholds this customer's layout;
// it is defined here as a per-assortment delivery sheet of one report: a heading (report, date,
// supplier, buyer, formula, unit), then one block per assortment (the report's order) listing its
// diameter classes with logs and volume, closed by the assortment's subtotal and value; then the
// logs without assortment and each cull (no value); the total line is the report's totals. The
// blocks regroup the stored tally lines (app/domain/report.ts reportDeliveryBlocks), so every
// figure is the report screen's.

export const iglExcel: ExcelExportType<ReportSelection> = {
  reportType: "igl_excel",
  kind: "excel",
  labelKey: "exports:types.igl_excel",
  nameSuffix: reportSuffix,
  feature: "igl_excel",
  selectionKeys: ["report_id"],
  selection: ReportSelectionSchema,
  source: reportSource((params) => ReportSelectionSchema.parse(params)),
  write: (out, ctx) => writeDeliverySheet(out, ctx),
};

function blockName(t: TFunction, block: ReturnType<typeof reportDeliveryBlocks>[number]) {
  if (block.kind === "unsorted") return t("reports:detail.unsorted");
  if (block.kind === "cull") return t("reports:files.culled", { name: block.name });
  return block.name ?? DASH;
}

async function writeDeliverySheet(out: Writable, ctx: ExcelWriteContext<ReportSelection>) {
  const { t } = ctx;
  const report = await readReportFor(ctx.db, ctx.organizationId, ctx.selection.report_id);
  if (!report?.details) throw new Error("report gone");
  const { seller, buyer } = await reportParties(ctx.db, report);
  const currency = seller.currency;
  const unit = volumeUnitLabel(report.volume_unit);
  const { wb, ws } = documentSheet(t("reports:files.deliverySheet"), [30, 14, 10, 14, 16]);

  const title = ws.addRow([t("reports:files.deliverySheet")]);
  title.font = { bold: true, size: 14 };
  labelled(ws, t("reports:fields.name"), report.name);
  labelled(ws, t("reports:fields.reportedAt"), isoDayToDisplay(report.reported_at));
  labelled(ws, t("reports:files.seller"), seller.name);
  labelled(ws, t("reports:files.buyer"), buyer?.name ?? DASH);
  labelled(ws, t("reports:fields.volumeFormula"), t(`lookups:formulas.${report.volume_formula}.name`));
  labelled(ws, t("reports:fields.volumeUnit"), unit);
  ws.addRow([]);

  bold(
    ws.addRow([
      t("reports:detail.characteristic"),
      t("reports:detail.diameter"),
      t("reports:detail.logCount"),
      t("reports:detail.volume", { unit }),
      t("reports:files.amount", { currency }),
    ]),
  );
  const blocks = reportDeliveryBlocks(report.details);
  for (const block of blocks) {
    bold(ws.addRow([blockName(t, block)]));
    for (const line of block.lines)
      formats(ws.addRow([null, line.diameter, line.log_count, line.volume]), { 4: VOLUME });
    formats(bold(ws.addRow([t("reports:files.subtotal"), null, block.log_count, block.volume, block.value])), {
      4: VOLUME,
      5: MONEY,
    });
  }
  const totals = report.details.totals;
  formats(bold(ws.addRow([t("reports:detail.total"), null, totals.log_count, totals.volume, totals.value])), {
    4: VOLUME,
    5: MONEY,
  });
  await writeDocument(out, wb);
  return { rowCount: blocks.reduce((s, b) => s + b.lines.length, 0) };
}
