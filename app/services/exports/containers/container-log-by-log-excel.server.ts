import { z } from "zod";
import { roundHalfUp, sumJasVolumes } from "~/domain";
import {
  containerMeasurementPresence,
  countContainerLogSelection,
  streamContainerLogs,
  type ContainerLogSelection,
} from "~/models/container-export.server";
import { containerExists } from "~/models/container.server";
import { EXCEL_BATCH } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import type { DetailPart } from "~/utils/export-detail";
import { ExportIdSchema, IdListSchema } from "~/utils/schemas/export";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// container_log_by_log_excel (docs/decisions/026-exports-and-labels.md, "Container exports"):
// every kept log of the selected container measurements (measurement_ids: the cards ticked in
// container mode; or container_id: every live measurement of one container): container, bill of
// lading, measurement, log number within the measurement, diameter and JAS scaling diameter (cm),
// length (m) and JAS volume (m³, per log as stored by app/domain/container.ts); a subtotal line
// per measurement and the total at the end. Logs are streamed from MySQL.

const LogSelectionSchema = z
  .looseObject({ measurement_ids: IdListSchema.optional(), container_id: ExportIdSchema.optional() })
  .superRefine((body, ctx) => {
    if (body.measurement_ids === undefined && body.container_id === undefined)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    if (body.measurement_ids && body.measurement_ids.length === 0)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    if (body.measurement_ids !== undefined && body.container_id !== undefined)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.oneSelection" });
  })
  .transform((body): ContainerLogSelection =>
    body.measurement_ids ? { measurement_ids: body.measurement_ids } : { container_id: body.container_id! },
  );

const StoredSelectionSchema = z.object({
  measurement_ids: z.array(z.number()).optional(),
  container_id: z.number().optional(),
});

const logSource: RowSource<ContainerLogSelection> = {
  async request(db, ctx, selection) {
    if (selection.container_id !== undefined) {
      if (!(await containerExists(db, ctx.organizationId, selection.container_id))) return "not_found";
    } else {
      const ids = selection.measurement_ids ?? [];
      const found = await containerMeasurementPresence(db, ctx, ids);
      if (found.length < new Set(ids).size) return "not_found";
    }
    const count = await countContainerLogSelection(db, ctx, selection);
    return { selection, count: count.measurements };
  },
  revive: (params) => StoredSelectionSchema.parse(params ?? {}),
  async prepare(db, organizationId, selection) {
    const scope = { organizationId };
    const leftOut: DetailPart[] = [];
    if (selection.container_id !== undefined && !(await containerExists(db, organizationId, selection.container_id)))
      return { records: 0, expectedRows: 0, leftOut };
    if (selection.measurement_ids) {
      const found = new Set(await containerMeasurementPresence(db, scope, selection.measurement_ids));
      const missing = selection.measurement_ids.filter((id) => !found.has(id)).map((id) => `#${id}`);
      if (missing.length && found.size)
        leftOut.push({ key: "exports:detail.missing", params: { ids: missing.join(", ") } });
    }
    const count = await countContainerLogSelection(db, scope, selection);
    return { records: count.measurements, expectedRows: count.logs, leftOut };
  },
};

export const containerLogByLogExcel: ExcelExportType<ContainerLogSelection> = {
  reportType: "container_log_by_log_excel",
  kind: "excel",
  labelKey: "exports:types.container_log_by_log_excel",
  nameSuffix: (selection) =>
    selection.container_id !== undefined
      ? undefined
      : selection.measurement_ids?.length === 1
        ? `#${selection.measurement_ids[0]}`
        : undefined,
  feature: "container_measurements",
  selectionKeys: ["measurement_ids", "container_id"],
  selection: LogSelectionSchema,
  source: logSource,
  write: (out, ctx) => writeLogByLog(out, ctx),
};

async function writeLogByLog(out: Writable, ctx: ExcelWriteContext<ContainerLogSelection>) {
  const { t } = ctx;
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("containers:excel.sheets.logByLog"), [
    { header: t("containers:excel.columns.container"), kind: "text", width: 22 },
    { header: t("containers:excel.columns.billOfLading"), kind: "text", width: 20 },
    { header: t("containers:excel.columns.measurement"), kind: "int", width: 12 },
    { header: t("containers:excel.columns.log"), kind: "int", width: 8 },
    { header: t("containers:excel.columns.diameter"), kind: "number", numFmt: "0.0", width: 14 },
    { header: t("containers:excel.columns.jasDiameter"), kind: "int", width: 14 },
    { header: t("containers:excel.columns.length"), kind: "number", numFmt: "0.00", width: 10 },
    { header: t("containers:excel.columns.logs"), kind: "int", width: 10 },
    { header: t("containers:excel.columns.volume"), kind: "number", numFmt: "0.0000", width: 14 },
  ]);
  let current: { id: number; container: string | null; bill: string | null; logs: number; volumes: number[] } | null =
    null;
  const all: number[] = [];
  let totalLogs = 0;
  const closeMeasurement = () => {
    if (!current) return;
    const subtotal = sumJasVolumes(current.volumes);
    sheet.add([current.container, current.bill, current.id, null, null, null, null, current.logs, subtotal]);
    // The total adds the measurements' subtotals, so it is the sum of the lines above it.
    all.push(subtotal);
  };
  let written = 0;
  for await (const row of streamContainerLogs(ctx.db, { organizationId: ctx.organizationId }, ctx.selection)) {
    if (!current || current.id !== row.measurement_id) {
      closeMeasurement();
      current = { id: row.measurement_id, container: row.container_name, bill: row.bill_name, logs: 0, volumes: [] };
    }
    current.logs++;
    current.volumes.push(row.v);
    totalLogs++;
    sheet.add([
      row.container_name,
      row.bill_name,
      row.measurement_id,
      current.logs,
      roundHalfUp(row.d, 1),
      row.jas_d,
      row.log_length,
      1,
      row.v,
    ]);
    if (++written % EXCEL_BATCH === 0) {
      await sheet.drain();
      await ctx.onProgress(Math.min(0.99, written / Math.max(1, ctx.expectedRows)));
    }
  }
  closeMeasurement();
  sheet.add([t("containers:excel.total"), null, null, null, null, null, null, totalLogs, sumJasVolumes(all)]);
  sheet.commit();
  await wb.commit();
  return { rowCount: written };
}
