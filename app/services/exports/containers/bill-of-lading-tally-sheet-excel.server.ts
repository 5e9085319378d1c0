import { z } from "zod";
import { billOfLadingExists } from "~/models/container.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import type { DB } from "~/utils/db.server";
import { ExportIdSchema } from "~/utils/schemas/export";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// bill_of_lading_tally_sheet_excel (docs/decisions/022-containers.md): one bill of lading, laid
// out as a JAS tally sheet: per container (by name), every kept log of its live measurements with
// its JAS scaling diameter (cm), length (m) and JAS volume (m³, rounded per log as the tally adds
// them up; computed by app/domain/container.ts and stored on the log), then the container's
// subtotal; at the end the bill's total. A second sheet sums per container. The logs are streamed
// from MySQL, so a 200-container bill does not sit in memory.

export type TallySelection = { bill_of_lading_id: number };

const TallySelectionSchema = z.object({ bill_of_lading_id: ExportIdSchema });

function logsQuery(db: DB, organizationId: number, billId: number) {
  return db
    .selectFrom("container_measurement_logs as l")
    .innerJoin("container_measurements as m", "m.id", "l.container_measurement_id")
    .innerJoin("containers as c", "c.id", "m.container_id")
    .where("c.organization_id", "=", organizationId)
    .where("c.bill_of_lading_id", "=", billId)
    .where("m.organization_id", "=", organizationId)
    .where("m.deleted_at", "is", null)
    .where("l.is_deleted", "=", false);
}

const tallySource: RowSource<TallySelection> = {
  async request(db, ctx, selection) {
    if (!(await billOfLadingExists(db, ctx.organizationId, selection.bill_of_lading_id))) return "not_found";
    return { selection, count: 1 };
  },
  revive: (params) => TallySelectionSchema.parse(params),
  async prepare(db, organizationId, selection) {
    if (!(await billOfLadingExists(db, organizationId, selection.bill_of_lading_id)))
      return { records: 0, expectedRows: 0, leftOut: [] };
    const n = await logsQuery(db, organizationId, selection.bill_of_lading_id)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return { records: 1, expectedRows: Number(n.n), leftOut: [] };
  },
};

export const billOfLadingTallySheetExcel: ExcelExportType<TallySelection> = {
  reportType: "bill_of_lading_tally_sheet_excel",
  kind: "excel",
  labelKey: "exports:types.bill_of_lading_tally_sheet_excel",
  nameSuffix: (selection) => `#${selection.bill_of_lading_id}`,
  feature: "container_measurements",
  selectionKeys: ["bill_of_lading_id"],
  selection: TallySelectionSchema,
  source: tallySource,
  write: (out, ctx) => writeTallySheet(out, ctx),
};

interface Totals {
  name: string;
  sealNumber: string | null;
  logs: number;
  volume: number;
}

async function writeTallySheet(out: Writable, ctx: ExcelWriteContext<TallySelection>) {
  const { t, db, organizationId } = ctx;
  const billId = ctx.selection.bill_of_lading_id;
  const bill = await db
    .selectFrom("bill_of_ladings")
    .select("name")
    .where("id", "=", billId)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (!bill) throw new Error("bill of lading gone");
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("containers:excel.sheets.tally"), [
    { header: t("containers:excel.columns.container"), kind: "text", width: 22 },
    { header: t("containers:excel.columns.measurement"), kind: "int", width: 12 },
    { header: t("containers:excel.columns.log"), kind: "int", width: 8 },
    { header: t("containers:excel.columns.jasDiameter"), kind: "int", width: 14 },
    { header: t("containers:excel.columns.length"), kind: "number", numFmt: "0.00", width: 10 },
    { header: t("containers:excel.columns.logs"), kind: "int", width: 10 },
    { header: t("containers:excel.columns.volume"), kind: "number", numFmt: "0.0000", width: 14 },
  ]);
  const perContainer: Totals[] = [];
  let current: (Totals & { id: number }) | null = null;
  let logNo = 0;
  let total = { logs: 0, volume: 0 };
  const closeContainer = () => {
    if (!current) return;
    sheet.add([
      `${current.name} — ${t("containers:excel.subtotal")}`,
      null,
      null,
      null,
      null,
      current.logs,
      current.volume,
    ]);
    perContainer.push(current);
  };
  const stream = logsQuery(db, organizationId, billId)
    .select([
      "c.id as container_id",
      "c.name",
      "c.seal_number",
      "m.id as measurement_id",
      "m.log_length",
      "l.jas_d",
      "l.v",
    ])
    .orderBy("c.name")
    .orderBy("c.id")
    .orderBy("m.id")
    .orderBy("l.id")
    .stream(1000);
  let written = 0;
  for await (const row of stream) {
    if (!current || current.id !== row.container_id) {
      closeContainer();
      current = { id: row.container_id, name: row.name, sealNumber: row.seal_number, logs: 0, volume: 0 };
      logNo = 0;
    }
    logNo++;
    current.logs++;
    current.volume += row.v;
    total = { logs: total.logs + 1, volume: total.volume + row.v };
    sheet.add([row.name, row.measurement_id, logNo, row.jas_d, row.log_length, 1, row.v]);
    if (++written % 2000 === 0) {
      await sheet.drain();
      await ctx.onProgress(Math.min(0.99, written / Math.max(1, ctx.expectedRows)));
    }
  }
  closeContainer();
  sheet.add([`${bill.name} — ${t("containers:excel.total")}`, null, null, null, null, total.logs, total.volume]);
  sheet.commit();

  const summary = new SheetWriter(wb, t("containers:excel.sheets.containers"), [
    { header: t("containers:excel.columns.container"), kind: "text", width: 22 },
    { header: t("containers:excel.columns.sealNumber"), kind: "text", width: 14 },
    { header: t("containers:excel.columns.logs"), kind: "int", width: 10 },
    { header: t("containers:excel.columns.volume"), kind: "number", numFmt: "0.0000", width: 14 },
  ]);
  for (const c of perContainer) summary.add([c.name, c.sealNumber, c.logs, c.volume]);
  summary.add([t("containers:excel.total"), null, total.logs, total.volume]);
  summary.commit();
  await wb.commit();
  return { rowCount: written };
}
