import { clampPrecision, convertVolume, roundHalfUp, volumeUnitLabel, type VolumeUnit } from "~/domain";
import { streamFilteredBills } from "~/models/container.server";
import { getExportLayout } from "~/models/export-layout.server";
import { decimalsFormat } from "~/services/excel-reports.server";
import { createWorkbook } from "~/services/xlsx-writer.server";
import { ContainerFilterSchema, type ContainerFilter } from "~/utils/schemas/containers";
import { layoutSheet, type Catalogue } from "./layout-writer.server";
import { containerDashboardSource } from "../containers/container-dashboard-excel.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { TFunction } from "i18next";
import type { Writable } from "node:stream";

// custom_bill_of_lading_excel: container_dashboard_excel's rows (each bill, then its containers,
// then the total row; same filter, same figures) in the organisation's own layout (target
// "bill_of_lading"), behind custom_export_layouts.

type Row = {
  billOfLading: string;
  container: string | null;
  containers: number | null;
  measurements: number;
  logs: number;
  /** m³, as stored. */
  volume: number;
};
type Cells = { volumeUnit: VolumeUnit; precision: number; unit: string };

const inUnit = (m3: number, c: Cells) =>
  roundHalfUp(c.volumeUnit === "m^3" ? m3 : convertVolume(m3, "m^3", c.volumeUnit), c.precision);

export const BILL_OF_LADING_CATALOGUE: Catalogue<Row, Cells> = [
  {
    key: "billOfLading",
    header: (t) => t("containers:excel.columns.billOfLading"),
    kind: "text",
    width: 24,
    cell: (r) => r.billOfLading,
  },
  {
    key: "container",
    header: (t) => t("containers:excel.columns.container"),
    kind: "text",
    width: 22,
    cell: (r) => r.container,
  },
  {
    key: "containers",
    header: (t) => t("containers:excel.columns.containers"),
    kind: "int",
    width: 12,
    cell: (r) => r.containers,
  },
  {
    key: "measurements",
    header: (t) => t("containers:excel.columns.measurements"),
    kind: "int",
    width: 12,
    cell: (r) => r.measurements,
  },
  { key: "logs", header: (t) => t("containers:excel.columns.logs"), kind: "int", width: 10, cell: (r) => r.logs },
  {
    key: "volume",
    header: (t: TFunction, c) => t("containers:excel.columns.volumeIn", { unit: c.unit }),
    kind: "number",
    numFmt: (c) => decimalsFormat(c.precision),
    width: 14,
    cell: (r, c) => inUnit(r.volume, c),
  },
];

export const customBillOfLadingExcel: ExcelExportType<ContainerFilter> = {
  reportType: "custom_bill_of_lading_excel",
  kind: "excel",
  labelKey: "exports:types.custom_bill_of_lading_excel",
  feature: "custom_export_layouts",
  selectionKeys: ["measurement_ids"],
  selection: ContainerFilterSchema,
  source: containerDashboardSource,
  write: (out, ctx) => writeCustomBillOfLading(out, ctx),
};

async function writeCustomBillOfLading(out: Writable, ctx: ExcelWriteContext<ContainerFilter>) {
  const { t } = ctx;
  const cells: Cells = {
    volumeUnit: ctx.volumeUnit,
    precision: clampPrecision(ctx.precision),
    unit: volumeUnitLabel(ctx.volumeUnit),
  };
  const layout = await getExportLayout(ctx.db, ctx, "bill_of_lading");
  const wb = createWorkbook(out);
  const { sheet, add } = layoutSheet(
    wb,
    t("containers:excel.sheets.dashboard"),
    t,
    BILL_OF_LADING_CATALOGUE,
    layout,
    cells,
  );
  const total = { bills: 0, containers: 0, measurements: 0, logs: 0, volume: 0 };
  for await (const bill of streamFilteredBills(ctx.db, { organizationId: ctx.organizationId }, ctx.selection)) {
    const measurements = bill.containers.reduce((s, c) => s + c.measurement_count, 0);
    add({
      billOfLading: bill.name,
      container: null,
      containers: bill.container_count,
      measurements,
      logs: bill.log_count,
      volume: bill.volume,
    });
    for (const c of bill.containers)
      add({
        billOfLading: bill.name,
        container: c.name,
        containers: null,
        measurements: c.measurement_count,
        logs: c.log_count,
        volume: c.volume,
      });
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
  add({
    billOfLading: t("containers:excel.total"),
    container: null,
    containers: total.containers,
    measurements: total.measurements,
    logs: total.logs,
    volume: total.volume,
  });
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
