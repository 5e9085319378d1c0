import { describe, expect, it } from "vitest";
import { webCookie } from "#tests/factories";
import { containerOrg, createBill, createContainer, createContainerMeasurement } from "#tests/helpers/containers";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// bill_of_lading_tally_sheet_excel, read back with exceljs, against hand-computed JAS figures:
// container A holds a measurement of logs 30, 16 and 13.2 cm at 4 m (JAS 30, 16, 13 cm:
// 0.36 + 0.1024 + 0.0676 = 0.53 m³) and one of a 20 cm log at 8 m (JAS 20 + (8 - 4) / 2 = 22:
// 22² x 8 / 10 000 = 0.3872 m³); container B one 30 cm log at 4 m (0.36 m³). Bill: 5 logs,
// 1.2772 m³. A deleted log and a deleted measurement count for nothing.

describe("bill_of_lading_tally_sheet_excel", () => {
  it("lists every log per container with JAS diameter, length and volume, and the totals", async () => {
    const a = await containerOrg("viewer");
    const bill = await createBill(a.org.id, "BL-TALLY");
    const ca = await createContainer(a.org.id, bill, "A-100");
    const cb = await createContainer(a.org.id, bill, "B-200");
    const m1 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: ca, radii: [75, 40, 33, 90] });
    await db()
      .updateTable("container_measurement_logs")
      .set({ is_deleted: true })
      .where("container_measurement_id", "=", m1)
      .where("r", "=", 90)
      .execute();
    const m2 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: ca, radii: [50], logLength: 8 });
    const m3 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: cb, radii: [75] });
    const gone = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: cb, radii: [75, 75] });
    await db().updateTable("container_measurements").set({ deleted_at: new Date() }).where("id", "=", gone).execute();

    const res = await api("/api/web_app/excel_exports", {
      token: a.token,
      json: { report_type: "bill_of_lading_tally_sheet_excel", bill_of_lading_id: bill },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: await webCookie(a.user.id) })).body);
    const tally = wb.getWorksheet("Tally sheet")!;
    const rows: unknown[][] = [];
    tally.eachRow((row, n) => {
      if (n > 1) rows.push([1, 2, 3, 4, 5, 6, 7].map((c) => row.getCell(c).value ?? null));
    });
    expect(rows.map((r) => r.slice(0, 5))).toEqual([
      ["A-100", m1, 1, 30, 4],
      ["A-100", m1, 2, 16, 4],
      ["A-100", m1, 3, 13, 4],
      ["A-100", m2, 4, 20, 8],
      ["A-100 — subtotal", null, null, null, null],
      ["B-200", m3, 1, 30, 4],
      ["B-200 — subtotal", null, null, null, null],
      ["BL-TALLY — Total", null, null, null, null],
    ]);
    expect(rows.map((r) => r[6])).toEqual([
      0.36,
      0.1024,
      0.0676,
      0.3872,
      expect.any(Number),
      0.36,
      0.36,
      expect.any(Number),
    ]);
    expect(rows[4]![5]).toBe(4);
    expect(rows[4]![6]).toBeCloseTo(0.9172, 10);
    expect(rows[7]![5]).toBe(5);
    expect(rows[7]![6]).toBeCloseTo(1.2772, 10);

    const summary = wb.getWorksheet("Containers")!;
    expect([summary.getRow(2).getCell(1).value, summary.getRow(2).getCell(3).value]).toEqual(["A-100", 4]);
    expect([summary.getRow(4).getCell(1).value, summary.getRow(4).getCell(3).value]).toEqual(["Total", 5]);
    expect(summary.getRow(4).getCell(4).value).toBeCloseTo(1.2772, 10);

    // Another organisation's bill is 404; without the Container plan the type is refused.
    const other = await containerOrg();
    const foreign = await api("/api/web_app/excel_exports", {
      token: other.token,
      json: { report_type: "bill_of_lading_tally_sheet_excel", bill_of_lading_id: bill },
    });
    expect(foreign.status).toBe(404);
    const off = await containerOrg("admin", []);
    const gated = await api("/api/web_app/excel_exports", {
      token: off.token,
      json: { report_type: "bill_of_lading_tally_sheet_excel", bill_of_lading_id: await createBill(off.org.id) },
    });
    expect(gated.status).toBe(422);
    expect(gated.data.error).toBe("feature_unavailable");
  });
});
