import { clampPrecision, convertVolume, roundHalfUp, volumeUnitLabel } from "~/domain";
import { countFilteredBills, streamFilteredBills } from "~/models/container.server";
import { decimalsFormat } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { ContainerFilterSchema, type ContainerFilter } from "~/utils/schemas/containers";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// container_dashboard_excel (docs/decisions/026-exports-and-labels.md, "Container exports"): the
// container mode's table under the same filter (every bill-of-lading filter field of
// POST /containers/container_filter, also those the screen's panel does not show), every page of
// it: each bill with its container count, measurement count, log count and volume, then its
// containers (the rows the screen expands to), and a total row. Bills are read 200 at a time
// (models/container.server.ts streamFilteredBills), so memory stays flat. Volumes are stored in
// m³ and written in the owner's unit and precision, as the screen shows them.

export const containerDashboardSource: RowSource<ContainerFilter> = {
  async request(db, ctx, selection) {
    return { selection, count: await countFilteredBills(db, ctx, selection) };
  },
  revive: (params) => ContainerFilterSchema.parse(params ?? {}),
  async prepare(db, organizationId, selection) {
    const records = await countFilteredBills(db, { organizationId }, selection);
    return { records, expectedRows: records, leftOut: [] };
  },
};

export const containerDashboardExcel: ExcelExportType<ContainerFilter> = {
  reportType: "container_dashboard_excel",
  kind: "excel",
  labelKey: "exports:types.container_dashboard_excel",
  feature: "container_measurements",
  // measurement_ids is one of the filter's fields here, not a selection of records.
  selectionKeys: ["measurement_ids"],
  selection: ContainerFilterSchema,
  source: containerDashboardSource,
  write: (out, ctx) => writeContainerDashboard(out, ctx),
};

async function writeContainerDashboard(out: Writable, ctx: ExcelWriteContext<ContainerFilter>) {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const inUnit = (m3: number) =>
    roundHalfUp(ctx.volumeUnit === "m^3" ? m3 : convertVolume(m3, "m^3", ctx.volumeUnit), precision);
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("containers:excel.sheets.dashboard"), [
    { header: t("containers:excel.columns.billOfLading"), kind: "text", width: 24 },
    { header: t("containers:excel.columns.container"), kind: "text", width: 22 },
    { header: t("containers:excel.columns.containers"), kind: "int", width: 12 },
    { header: t("containers:excel.columns.measurements"), kind: "int", width: 12 },
    { header: t("containers:excel.columns.logs"), kind: "int", width: 10 },
    {
      header: t("containers:excel.columns.volumeIn", { unit }),
      kind: "number",
      numFmt: decimalsFormat(precision),
      width: 14,
    },
  ]);
  const total = { bills: 0, containers: 0, measurements: 0, logs: 0, volume: 0 };
  for await (const bill of streamFilteredBills(ctx.db, { organizationId: ctx.organizationId }, ctx.selection)) {
    const measurements = bill.containers.reduce((s, c) => s + c.measurement_count, 0);
    sheet.add([bill.name, null, bill.container_count, measurements, bill.log_count, inUnit(bill.volume)]);
    for (const c of bill.containers)
      sheet.add([bill.name, c.name, null, c.measurement_count, c.log_count, inUnit(c.volume)]);
    total.bills++;
    total.containers += bill.container_count;
    total.measurements += measurements;
    total.logs += bill.log_count;
    total.volume += bill.volume;
    if (total.bills % 200 === 0) {
      await sheet.drain();
      await ctx.onProgress(Math.min(0.99, total.bills / Math.max(1, ctx.expectedRows)));
    }
  }
  sheet.add([
    t("containers:excel.total"),
    null,
    total.containers,
    total.measurements,
    total.logs,
    inUnit(total.volume),
  ]);
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
