import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { convertVolume } from "~/domain";
import { toUserVolume, wallClock } from "~/services/excel-reports.server";
import { parseExportRequest } from "~/services/exports/registry.server";
import { createWorkbook, safeSheetName, SheetWriter } from "~/services/xlsx-writer.server";
import { dashboardFilterFromBody } from "~/utils/schemas/export";

const excel = (body: Record<string, unknown>) => parseExportRequest("excel", body, []);
const pdf = (body: Record<string, unknown>) => parseExportRequest("pdf", body, []);
const errorsOf = (parsed: ReturnType<typeof parseExportRequest>) => (parsed.ok ? {} : parsed.refusal.errors);

async function collect(stream: PassThrough) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe("the streaming xlsx writer", () => {
  it("writes rows exceljs reads back: escaped text, numbers with formats, dates, empty cells, frozen header", async () => {
    const out = new PassThrough();
    const done = collect(out);
    const wb = createWorkbook(out);
    const sheet = new SheetWriter(wb, "Logs: a/b [c]", [
      { header: "Name", kind: "text" },
      { header: "Volume (m³)", kind: "number", numFmt: "0.000" },
      { header: "Taken", kind: "date", numFmt: "yyyy-mm-dd hh:mm" },
      { header: "Note", kind: "text" },
    ]);
    const when = new Date(Date.UTC(2026, 10, 21, 9, 30));
    for (let i = 0; i < 3000; i++) {
      sheet.add([`Pile <${i}> & "co"\u0001`, i / 1000, when, i % 2 ? null : "even"]);
      if (i % 500 === 0) await sheet.drain();
    }
    sheet.commit();
    await wb.commit();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await done) as unknown as ArrayBuffer);
    const ws = book.worksheets[0];
    expect(ws.name).toBe("Logs  a b  c");
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(ws.rowCount).toBe(3001);
    expect(ws.getRow(1).getCell(2).value).toBe("Volume (m³)");
    expect(ws.getRow(2).getCell(1).value).toBe('Pile <0> & "co"');
    expect(ws.getRow(1001).getCell(2).value).toBe(0.999);
    expect(ws.getRow(1001).getCell(2).numFmt).toBe("0.000");
    expect(ws.getRow(2).getCell(3).value).toEqual(when);
    expect(ws.getRow(3).getCell(4).value).toBeNull();
    expect(safeSheetName("x".repeat(40))).toHaveLength(31);
  });
});

describe("export rules", () => {
  it("reads the dashboard's filters with the dashboard's own schema: arrays or comma lists, dd.MM.yyyy or ISO dates, custom fields", () => {
    const parsed = dashboardFilterFromBody({
      storage_ids: "3, 4",
      wood_type_ids: [2, 5],
      taken_at_start: "01.03.2026",
      taken_at_end: "2026-03-31",
      volume_range_start: 1.5,
      "custom_fields[harvest_block]": "B-12",
      other: 1,
    });
    expect(parsed.data).toEqual({
      storage_ids: [3, 4],
      wood_type_ids: [2, 5],
      taken_at_start: new Date("2026-03-01T00:00:00.000Z"),
      taken_at_end: new Date("2026-03-31T23:59:59.999Z"),
      volume_range_start: 1.5,
      custom_fields: { harvest_block: "B-12" },
    });
    expect(dashboardFilterFromBody({}).data).toEqual({});
    // Bad values are refused (422 at the API), never silently dropped.
    const bad = excel({
      report_type: "dashboard_excel",
      storage_ids: "3,x",
      taken_at_start: "nonsense",
    });
    expect(bad.ok).toBe(false);
    expect(Object.keys(errorsOf(bad)).sort()).toEqual(["storage_ids", "taken_at_start"]);
  });

  it("validates the payloads as the spec gives them", () => {
    const ids = excel({ report_type: "log_by_log_excel", measurement_ids: "1,2" });
    expect(ids.ok && ids.selection).toEqual({ measurement_ids: [1, 2] });
    expect(excel({ report_type: "log_by_log_excel", measurement_ids: [] }).ok).toBe(false);
    expect(excel({ report_type: "log_by_log_excel", measurement_ids: [1], storage_id: 2 }).ok).toBe(false);
    expect(excel({ report_type: "dashboard_excel" }).ok).toBe(true);
    expect(errorsOf(excel({ report_type: "log_by_log_excel", inventory_id: 3 }))).toEqual({
      inventory_id: ["exports:errors.unsupportedSelection"],
    });
    expect(pdf({ report_type: "measurement_pdf", measurement_ids: [5] }).ok).toBe(true);
    expect(pdf({ report_type: "truck_measurement_pdf", measurement_ids: [5] }).ok).toBe(true);
    // Every spec type is made now (export-registry.test.ts covers notAvailable); an unknown one is refused.
    expect(errorsOf(excel({ report_type: "pallet_excel" }))).toEqual({
      report_type: ["exports:errors.reportType"],
    });
    const tooMany = pdf({
      report_type: "measurement_pdf",
      measurement_ids: Array.from({ length: 201 }, (_, i) => i + 1),
    });
    expect(errorsOf(tooMany)).toEqual({ measurement_ids: ["exports:errors.tooManyForPdf"] });
  });

  it("converts volumes to the owner's unit and dates to the owner's wall clock", () => {
    expect(toUserVolume(1, "cylinder", "ft^3", null)).toBeCloseTo(convertVolume(1, "m^3", "ft^3"), 12);
    expect(toUserVolume(2, "cylinder", "stere", 0.5)).toBe(4);
    expect(wallClock(new Date("2026-07-01T12:00:00Z"), "Europe/Tallinn")).toEqual(new Date("2026-07-01T15:00:00Z"));
    expect(wallClock(new Date("2026-01-01T12:00:00Z"), "Not/AZone")).toEqual(new Date("2026-01-01T12:00:00Z"));
  });
});
