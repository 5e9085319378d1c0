import { describe, expect, it } from "vitest";
import {
  apiToken,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, hasPoppler, readPdf, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { fileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import { db } from "~/utils/db.server";

// The truck report types (docs/decisions/017-trucks.md, "Exports"): truck_dashboard_excel and
// palmako_excel under the dashboard's filters, truck_measurement_pdf of one truck measurement;
// each file read back (exceljs, pdftotext) and its numbers compared with the screens'.

async function setup(features: string[] = []) {
  const org = await createOrganization({ name: "Haul Export Org", features });
  const user = await createUser(org.id, { role: "admin" });
  await db().updateTable("users").set({ time_zone: "UTC", rounding_precision: 3 }).where("id", "=", user.id).execute();
  const gate = await createStorage(org.id, { name: "A mill gate" });
  const yard = await createStorage(org.id, { name: "B yard" });
  const empty = await createStorage(org.id, { name: "C empty" });
  // 2.5 x 2.4 x 3 x 0.68 = 12.24 and 2 x 2.4 x 3 x 0.7 = 10.08: 22.32 m³ (stacked 18 + 14.4 = 32.4).
  const a = await createTruckMeasurement(org.id, gate.id, {
    plate: "AAA-111",
    shipmentNumber: "SH-1",
    takenAt: new Date("2026-05-02T08:00:00Z"),
  });
  // 1.5 x 2.5 x 4 x 0.6 = 9 m³ (stacked 15).
  const b = await createTruckMeasurement(org.id, gate.id, {
    plate: "BBB-222",
    takenAt: new Date("2026-05-03T08:00:00Z"),
    loads: [{ height: 1.5, load_width: 2.5, log_length: 4, coefficient: 0.6, load_bed_name: "Front" }],
  });
  const c = await createTruckMeasurement(org.id, yard.id, {
    plate: "AAA-999",
    takenAt: new Date("2026-05-04T08:00:00Z"),
  });
  return {
    org,
    gate,
    yard,
    empty,
    a,
    b,
    c,
    token: await apiToken(user.id),
    cookie: await webCookie(user.id),
  };
}

async function exported(s: { token: string; cookie: string }, json: Record<string, unknown>, path = "excel_exports") {
  const res = await api(`/api/web_app/${path}`, { token: s.token, json });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  const row = await waitForExport(res.data.id, 90_000);
  expect(row.status, String(row.status_detail)).toBe(1); // done, nothing left out
  return (await download(res.data.id, { cookie: s.cookie })).body;
}

const rowsOf = (sheet: { getSheetValues(): unknown[] }) =>
  (sheet.getSheetValues() as unknown[][]).filter(Boolean).map((r) => Array.from(r.slice(1), (v) => v ?? null));

describe("truck_dashboard_excel", () => {
  it("writes the dashboard's storages and truck measurements under its plate filter, read back with exceljs", async () => {
    const s = await setup();
    // The screen's totals under the same filter.
    const screen = await api("/measurements/truck?license_plate=AAA", {
      cookie: s.cookie,
      headers: { Accept: "text/html" },
    });
    expect(screen.status).toBe(200);
    expect(screen.data).toMatch(/22[.,]320/);
    expect(screen.data).toMatch(/44[.,]640/);

    const wb = await readXlsx(await exported(s, { report_type: "truck_dashboard_excel", license_plate: "AAA" }));
    const storages = rowsOf(wb.worksheets[0]);
    expect(storages[0]).toEqual([
      "Storage",
      "Measurements",
      "Loads",
      "Logs",
      "Solid volume (m³)",
      "Solid volume, truck-diameter (m³)",
    ]);
    // Every storage the dashboard lists, with the filtered totals (no truck-diameter logs here).
    expect(storages.slice(1)).toEqual([
      ["A mill gate", 1, 2, 0, 22.32, 0],
      ["B yard", 1, 2, 0, 22.32, 0],
      ["C empty", 0, 0, 0, 0, 0],
    ]);
    const measurements = rowsOf(wb.worksheets[1]);
    expect(measurements[0].slice(0, 4)).toEqual(["Measurement ID", "Storage", "License plate", "Shipment number"]);
    expect(measurements.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[7], r[8], r[9]])).toEqual([
      [s.a.id, "A mill gate", "AAA-111", "SH-1", 2, 32.4, 22.32],
      [s.c.id, "B yard", "AAA-999", null, 2, 32.4, 22.32],
    ]);
    expect((measurements[1][4] as Date).toISOString()).toBe("2026-05-02T08:00:00.000Z");
  });

  it("refuses both only-boxes (422, nothing stored), an empty selection, and another organisation sees none of it", async () => {
    const s = await setup();
    const before = await snapshotTables();
    const both = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: {
        report_type: "truck_dashboard_excel",
        truck_measurements_only: true,
        truck_diameter_measurements_only: "true",
      },
    });
    expect(both.status).toBe(422);
    expect(both.data.errors.truck_diameter_measurements_only).toEqual(["trucks:errors.exclusive"]);
    const none = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "truck_dashboard_excel", license_plate: "ZZZ" },
    });
    expect(none.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);
    // An organisation without truck measurements: nothing to export, not someone else's.
    const other = await createUser((await createOrganization()).id, { role: "admin" });
    const res = await api("/api/web_app/excel_exports", {
      token: await apiToken(other.id),
      json: { report_type: "truck_dashboard_excel" },
    });
    expect(res.status).toBe(422);
  });

  it("the dashboard's button posts without JavaScript and redirects back", async () => {
    const s = await setup();
    const screen = await api("/measurements/truck?license_plate=BBB", {
      cookie: s.cookie,
      headers: { Accept: "text/html" },
    });
    expect(screen.data).toContain('data-testid="export-button-truck_dashboard_excel"');
    expect(screen.data).not.toContain("export-button-palmako_excel");
    const ok = await api("/api/web_app/excel_exports", {
      cookie: s.cookie,
      form: {
        report_type: "truck_dashboard_excel",
        license_plate: "BBB",
        redirectTo: "/measurements/truck?license_plate=BBB",
      },
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/measurements/truck?license_plate=BBB");
    const rows = await db().selectFrom("exports").select(["report_type", "params"]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].report_type).toBe("truck_dashboard_excel");
  });
});

describe("palmako_excel", () => {
  it("needs the palmako_excel feature", async () => {
    const s = await setup();
    const res = await api("/api/web_app/excel_exports", { token: s.token, json: { report_type: "palmako_excel" } });
    expect(res.status).toBe(422);
    expect(res.data.error).toBe("feature_unavailable");
  });

  it("writes one row per load in delivery order with its sides and volumes", async () => {
    const s = await setup(["palmako_excel"]);
    const screen = await api("/measurements/truck", { cookie: s.cookie, headers: { Accept: "text/html" } });
    expect(screen.data).toContain('data-testid="export-button-palmako_excel"');
    const wb = await readXlsx(await exported(s, { report_type: "palmako_excel" }));
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Deliveries"]);
    const rows = rowsOf(wb.worksheets[0]);
    expect(rows[0]).toEqual([
      "Taken",
      "Measurement ID",
      "License plate",
      "Shipment number",
      "Storage",
      "Load no.",
      "Load bed",
      "Wood species",
      "Quality",
      "Assortment",
      "Height (m)",
      "Width (m)",
      "Log length (m)",
      "Coefficient",
      "Stacked volume (m³)",
      "Solid volume (m³)",
    ]);
    expect(rows.slice(1).map((r) => [r[1], r[2], r[3], r[5], r[6], r[10], r[11], r[12], r[13], r[14], r[15]])).toEqual([
      [s.a.id, "AAA-111", "SH-1", 1, "Truck", 2.5, 2.4, 3, 0.68, 18, 12.24],
      [s.a.id, "AAA-111", "SH-1", 2, "Trailer", 2, 2.4, 3, 0.7, 14.4, 10.08],
      [s.b.id, "BBB-222", null, 1, "Front", 1.5, 2.5, 4, 0.6, 15, 9],
      [s.c.id, "AAA-999", null, 1, "Truck", 2.5, 2.4, 3, 0.68, 18, 12.24],
      [s.c.id, "AAA-999", null, 2, "Trailer", 2, 2.4, 3, 0.7, 14.4, 10.08],
    ]);
    // The loads' solid volumes add up to the dashboard's total: 22.32 + 9 + 22.32 = 53.64 m³.
    const total = rows.slice(1).reduce((sum, r) => sum + (r[15] as number), 0);
    expect(total).toBeCloseTo(53.64, 9);
    expect(screen.data).toMatch(/53[.,]640/);
  });
});

describe.skipIf(!hasPoppler())("truck_measurement_pdf", () => {
  it("prints the details, the loads with their volumes and the total, read back with pdftotext", async () => {
    const s = await setup();
    const { layoutStack, renderStackJpeg } = await import("#db/seed/stack-photo");
    await storeOriginalPhoto(db(), fileStorage(), "truck", {
      organizationId: s.org.id,
      measurementId: s.a.id,
      data: await renderStackJpeg(layoutStack(3, { width: 800, height: 600 }), 3),
      fileName: "truck.jpg",
    });
    const detail = await api(`/measurements/truck/${s.a.id}`, { cookie: s.cookie, headers: { Accept: "text/html" } });
    expect(detail.data).toContain('data-testid="export-button-truck_measurement_pdf"');
    expect(detail.data).toMatch(/12[.,]240/);
    const { text } = readPdf(await exported(s, { report_type: "truck_measurement_pdf" }, `pdf_exports/${s.a.id}`));
    expect(text).toContain(`Truck measurement #${s.a.id}`);
    expect(text).toContain("Haul Export Org");
    expect(text).toContain("AAA-111");
    expect(text).toContain("SH-1");
    expect(text).toMatch(/Truck\s+2\.50\s+2\.40\s+3\.00\s+0\.68\s+18\.000\s+12\.240/);
    expect(text).toMatch(/Trailer\s+2\.00\s+2\.40\s+3\.00\s+0\.70\s+14\.400\s+10\.080/);
    expect(text).toMatch(/Total\s+32\.400\s+22\.320/);
    // The photo is printed (the text for a missing photo is not).
    expect(text).not.toContain("This truck measurement has no photo.");
  });

  it("another organisation's truck measurement or an unknown id is not found; nothing is stored", async () => {
    const s = await setup();
    const other = await createUser((await createOrganization()).id, { role: "admin" });
    const otherToken = await apiToken(other.id);
    const before = await snapshotTables();
    const res = await api(`/api/web_app/pdf_exports/${s.a.id}`, {
      token: otherToken,
      json: { report_type: "truck_measurement_pdf" },
    });
    expect(res.status).toBe(404);
    const missing = await api(`/api/web_app/pdf_exports/${s.c.id + 1000}`, {
      token: s.token,
      json: { report_type: "truck_measurement_pdf" },
    });
    expect(missing.status).toBe(404);
    expect(await snapshotTables()).toEqual(before);
  });
});
