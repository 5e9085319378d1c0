import { describe, expect, it } from "vitest";
import { createUser, apiToken, webCookie } from "#tests/factories";
import { containerOrg, createBill, createContainer, createContainerMeasurement } from "#tests/helpers/containers";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api, baseUrl } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import { convertToCsv } from "../helpers/soffice";

// The container report types beside the tally sheet (docs/decisions/026-exports-and-labels.md,
// "Container exports"): bill_of_lading_invoice_excel, container_dashboard_excel and
// container_log_by_log_excel, read back with exceljs and LibreOffice, against hand-computed JAS
// figures and against the screens' numbers.
//
// The world (5 px per cm, so radius r px is 2r/5 cm):
// - bill BL-INV, sold as "Sugi A" (125.50 per m³):
//   - container A-100: m1 logs 30, 16, 13.2 cm at 4 m -> JAS 30, 16, 13 cm:
//     30² x 4 / 10 000 = 0.36, 16² x 4 / 10 000 = 0.1024, 13² x 4 / 10 000 = 0.0676 (0.53 m³);
//     m2 one 20 cm log at 8 m -> JAS 20, volume at (20 + (8 - 4) / 2)² x 8 / 10 000 = 0.3872 m³.
//   - container B-200: m3 one 30 cm log at 4 m (0.36 m³), its own assortment "Hinoki" (8.75 per log).
// - bill BL-2: container C-300, m4 one 30 cm log at 4 m (0.36 m³).
// - an archived bill, a deleted measurement: not on the dashboard, not counted.
// Invoice of BL-INV: Hinoki 1 log, 0.36 m³, 1 x 8.75 = 8.75; Sugi A 4 logs, 0.9172 m³,
// 0.9172 x 125.50 = 115.1086 -> 115.11; total 5 logs, 1.2772 m³, 123.86 USD.

async function world(features = ["container_measurements", "bill_of_lading_invoice"]) {
  const a = await containerOrg("admin", features);
  await db()
    .updateTable("organizations")
    .set({ currency: "USD", vat_code: "EE100200300" })
    .where("id", "=", a.org.id)
    .execute();
  await db()
    .updateTable("users")
    .set({ rounding_precision: 3, volume_unit: "m^3", time_zone: "UTC" })
    .where("id", "=", a.user.id)
    .execute();
  const sugi = Number(
    (
      await db()
        .insertInto("assortments")
        .values({ organization_id: a.org.id, name: "Sugi A", price_cents: 12550 })
        .executeTakeFirstOrThrow()
    ).insertId,
  );
  const hinoki = Number(
    (
      await db()
        .insertInto("assortments")
        .values({ organization_id: a.org.id, name: "Hinoki", price_cents: 5000, price_per_log_cents: 875 })
        .executeTakeFirstOrThrow()
    ).insertId,
  );
  const bill = await createBill(a.org.id, "BL-INV");
  await db().updateTable("bill_of_ladings").set({ wood_characteristic_id: sugi }).where("id", "=", bill).execute();
  const ca = await createContainer(a.org.id, bill, "A-100");
  const cb = await createContainer(a.org.id, bill, "B-200");
  const m1 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: ca, radii: [75, 40, 33] });
  const m2 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: ca, radii: [50], logLength: 8 });
  const m3 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: cb, radii: [75] });
  await db().updateTable("container_measurements").set({ assortment_id: hinoki }).where("id", "=", m3).execute();
  const gone = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: cb, radii: [75, 75] });
  await db().updateTable("container_measurements").set({ deleted_at: new Date() }).where("id", "=", gone).execute();
  await new Promise((r) => setTimeout(r, 5)); // BL-2 is the newer bill (the screen lists newest first)
  const bill2 = await createBill(a.org.id, "BL-2");
  const cc = await createContainer(a.org.id, bill2, "C-300");
  const m4 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: cc, radii: [75] });
  const archived = await createBill(a.org.id, "BL-OLD");
  await db().updateTable("bill_of_ladings").set({ archived: true }).where("id", "=", archived).execute();
  await createContainerMeasurement(a.org.id, a.storage.id, {
    containerId: await createContainer(a.org.id, archived, "D-400"),
    radii: [75],
  });
  return { ...a, cookie: await webCookie(a.user.id), sugi, hinoki, bill, bill2, ca, cb, cc, m1, m2, m3, m4 };
}

async function made(token: string, json: Record<string, unknown>) {
  const res = await api("/api/web_app/excel_exports", { token, json });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  expect((await waitForExport(res.data.id)).status).toBe(1);
  return res.data.id as number;
}

async function sheetRows(id: number, cookie: string, sheetName: string, columns: number) {
  const file = (await download(id, { cookie })).body;
  const wb = await readXlsx(file);
  const sheet = wb.getWorksheet(sheetName)!;
  expect(sheet, sheetName).toBeTruthy();
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    rows.push(Array.from({ length: columns }, (_, i) => row.getCell(i + 1).value ?? null));
  });
  return { rows, file, wb };
}

describe("bill_of_lading_invoice_excel", () => {
  it("prices the bill's JAS volume by assortment in the organisation's currency (hand-computed)", async () => {
    const w = await world();
    const id = await made(w.token, { report_type: "bill_of_lading_invoice_excel", bill_of_lading_id: w.bill });
    const { rows, file, wb } = await sheetRows(id, w.cookie, "Invoice", 7);
    expect(rows).toEqual([
      ["Assortment", "Logs", "Volume (m³)", "Quantity", "Unit", "Unit price (USD)", "Amount (USD)"],
      ["Hinoki", 1, 0.36, 1, "per log", 8.75, 8.75],
      ["Sugi A", 4, 0.9172, 0.9172, "m³", 125.5, 115.11],
      ["Total", 5, 1.2772, null, null, null, 123.86],
    ]);
    // The tally sheet of the same bill adds up to the same logs and volume.
    const details = wb.getWorksheet("Invoice details")!;
    const head: Record<string, unknown> = {};
    details.eachRow((row, n) => {
      if (n > 1) head[String(row.getCell(1).value)] = row.getCell(2).value;
    });
    expect(head).toMatchObject({ "Bill of lading": "BL-INV", "VAT code": "EE100200300", Currency: "USD" });

    // The screen's figures of the bill (POST /containers/container_filter) are the invoice's totals.
    const screen = await api("/api/web_app/containers/container_filter", { token: w.token, json: {} });
    const bill = screen.data.bill_of_ladings.find((b: { id: number }) => b.id === w.bill);
    expect(bill.log_count).toBe(5);
    expect(bill.volume).toBeCloseTo(1.2772, 10);

    // LibreOffice shows the same figures, in the cells' number formats.
    expect(convertToCsv(file, "xlsx").trim().split("\n")).toEqual([
      "Assortment,Logs,Volume (m³),Quantity,Unit,Unit price (USD),Amount (USD)",
      "Hinoki,1,0.3600,1.0000,per log,8.75,8.75",
      "Sugi A,4,0.9172,0.9172,m³,125.50,115.11",
      "Total,5,1.2772,,,,123.86",
    ]);
  });

  it("needs the bill_of_lading_invoice entitlement: 422 in the API, the button hidden; other organisations' bills are 404", async () => {
    const plain = await world(["container_measurements"]);
    const refused = await api("/api/web_app/excel_exports", {
      token: plain.token,
      json: { report_type: "bill_of_lading_invoice_excel", bill_of_lading_id: plain.bill },
    });
    expect(refused.status).toBe(422);
    expect(refused.data).toMatchObject({ error: "feature_unavailable", feature: "bill_of_lading_invoice" });
    const page = await api("/measurements/container", { cookie: plain.cookie });
    expect(page.status).toBe(200);
    expect(page.data).toContain("export-button-bill_of_lading_tally_sheet_excel");
    expect(page.data).not.toContain("export-button-bill_of_lading_invoice_excel");

    const w = await world();
    const shown = await api("/measurements/container", { cookie: w.cookie });
    expect(shown.data).toContain("export-button-bill_of_lading_invoice_excel");
    expect(shown.data).toContain("export-button-container_dashboard_excel");
    const foreign = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "bill_of_lading_invoice_excel", bill_of_lading_id: plain.bill },
    });
    expect(foreign.status).toBe(404);
    const noBill = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "bill_of_lading_invoice_excel" },
    });
    expect(noBill.status).toBe(422);
    // A viewer may export (decision 011).
    const viewer = await createUser(w.org.id, { role: "viewer" });
    await made(await apiToken(viewer.id), { report_type: "bill_of_lading_invoice_excel", bill_of_lading_id: w.bill });
  });
});

describe("container_dashboard_excel", () => {
  it("lists the screen's bills with their containers, counts and volumes, and a total row", async () => {
    const w = await world();
    const id = await made(w.token, { report_type: "container_dashboard_excel" });
    const { rows, file } = await sheetRows(id, w.cookie, "Bills of lading", 6);
    expect(rows).toEqual([
      ["Bill of lading", "Container", "Containers", "Measurements", "Logs", "Volume (m³)"],
      ["BL-2", null, 1, 1, 1, 0.36],
      ["BL-2", "C-300", null, 1, 1, 0.36],
      ["BL-INV", null, 2, 3, 5, 1.277],
      ["BL-INV", "A-100", null, 2, 4, 0.917],
      ["BL-INV", "B-200", null, 1, 1, 0.36],
      ["Total", null, 3, 4, 6, 1.637],
    ]);
    // The same numbers as the screen's table (POST /containers/container_filter).
    const screen = await api("/api/web_app/containers/container_filter", { token: w.token, json: {} });
    expect(
      screen.data.bill_of_ladings.map(
        (b: { name: string; container_count: number; log_count: number; volume: number }) => [
          b.name,
          b.container_count,
          b.log_count,
          +b.volume.toFixed(3),
        ],
      ),
    ).toEqual(
      rows
        .filter((r) => r[0] !== "Total" && r[1] === null && r[2] !== "Containers")
        .map((r) => [r[0], r[2], r[4], r[5]]),
    );

    // LibreOffice shows the same figures, in the owner's precision.
    const csv = convertToCsv(file, "xlsx").trim().split("\n");
    expect(csv[3]).toBe("BL-INV,,2,3,5,1.277");
    expect(csv[5]).toBe("BL-INV,B-200,,1,1,0.360");
    expect(csv[6]).toBe("Total,,3,4,6,1.637");
  });

  it("follows the filter, also the fields the screen's panel does not show; works as a plain form post", async () => {
    const w = await world();
    // An assortment filter (only the API has it): the Hinoki measurement, so BL-INV with B-200 only.
    for (const filter of [{ wood_characteristic_ids: [w.hinoki] }, { measurement_ids: [w.m3] }]) {
      const id = await made(w.token, { report_type: "container_dashboard_excel", ...filter });
      const { rows } = await sheetRows(id, w.cookie, "Bills of lading", 6);
      expect(rows.slice(1), JSON.stringify(filter)).toEqual([
        ["BL-INV", null, 1, 1, 1, 0.36],
        ["BL-INV", "B-200", null, 1, 1, 0.36],
        ["Total", null, 1, 1, 1, 0.36],
      ]);
      const screen = await api("/api/web_app/containers/container_filter", { token: w.token, json: filter });
      expect(
        screen.data.bill_of_ladings.map((b: { name: string; log_count: number }) => [b.name, b.log_count]),
      ).toEqual([["BL-INV", 1]]);
    }
    // The archived ones, as the screen's "archived" box shows them; a plain form post (no JavaScript).
    const form = await api("/api/web_app/excel_exports", {
      cookie: w.cookie,
      form: {
        report_type: "container_dashboard_excel",
        archived: "true",
        redirectTo: "/measurements/container?archived=true",
      },
    });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe("/measurements/container?archived=true");
    const row = await db()
      .selectFrom("exports")
      .select(["id", "report_type"])
      .where("organization_id", "=", w.org.id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(row.report_type).toBe("container_dashboard_excel");
    expect((await waitForExport(row.id)).status).toBe(1);
    const { rows } = await sheetRows(row.id, w.cookie, "Bills of lading", 6);
    expect(rows.slice(1)).toEqual([
      ["BL-OLD", null, 1, 1, 1, 0.36],
      ["BL-OLD", "D-400", null, 1, 1, 0.36],
      ["Total", null, 1, 1, 1, 0.36],
    ]);

    // Another organisation's ids select nothing of it; without the plan the type is refused.
    const other = await world();
    const foreign = await api("/api/web_app/excel_exports", {
      token: other.token,
      json: { report_type: "container_dashboard_excel", measurement_ids: [w.m3] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.data.errors.measurement_ids).toEqual(["exports:errors.emptySelection"]);
    const off = await containerOrg("admin", []);
    const gated = await api("/api/web_app/excel_exports", {
      token: off.token,
      json: { report_type: "container_dashboard_excel" },
    });
    expect(gated.data).toMatchObject({ error: "feature_unavailable", feature: "container_measurements" });
  });
});

describe("container_log_by_log_excel", () => {
  it("lists every log of the selected measurements with JAS diameter, length and volume, and the totals", async () => {
    const w = await world();
    const id = await made(w.token, { report_type: "container_log_by_log_excel", measurement_ids: [w.m2, w.m1] });
    const { rows, file } = await sheetRows(id, w.cookie, "Log by log", 9);
    expect(rows).toEqual([
      [
        "Container",
        "Bill of lading",
        "Measurement",
        "No.",
        "Diameter (cm)",
        "JAS diameter (cm)",
        "Length (m)",
        "Logs",
        "Volume (m³)",
      ],
      ["A-100", "BL-INV", w.m1, 1, 30, 30, 4, 1, 0.36],
      ["A-100", "BL-INV", w.m1, 2, 16, 16, 4, 1, 0.1024],
      ["A-100", "BL-INV", w.m1, 3, 13.2, 13, 4, 1, 0.0676],
      ["A-100", "BL-INV", w.m1, null, null, null, null, 3, 0.53],
      ["A-100", "BL-INV", w.m2, 1, 20, 20, 8, 1, 0.3872],
      ["A-100", "BL-INV", w.m2, null, null, null, null, 1, 0.3872],
      ["Total", null, null, null, null, null, null, 4, 0.9172],
    ]);
    // The measurements' own figures (the screen's cards) are the subtotals.
    const cards = await api(`/api/web_app/containers/measurements?container_id=${w.ca}`, { token: w.token });
    const figures = cards.data.data as Array<{
      id: number;
      logs_count: number;
      volume: number;
    }>;
    expect(figures.map((m) => [m.id, m.logs_count, +m.volume.toFixed(6)]).sort()).toEqual(
      [
        [w.m1, 3, 0.53],
        [w.m2, 1, 0.3872],
      ].sort(),
    );

    // A container's measurements (its row's button): B-200's one live measurement.
    const byContainer = await made(w.token, { report_type: "container_log_by_log_excel", container_id: w.cb });
    const b = await sheetRows(byContainer, w.cookie, "Log by log", 9);
    expect(b.rows.slice(1)).toEqual([
      ["B-200", "BL-INV", w.m3, 1, 30, 30, 4, 1, 0.36],
      ["B-200", "BL-INV", w.m3, null, null, null, null, 1, 0.36],
      ["Total", null, null, null, null, null, null, 1, 0.36],
    ]);

    // LibreOffice reads the same values (after the calls: its minutes-long start would outlast a kept-alive socket).
    const csv = convertToCsv(file, "xlsx").trim().split("\n");
    expect(csv[1]).toBe(`A-100,BL-INV,${w.m1},1,30.0,30,4.00,1,0.3600`);
    expect(csv[3]).toBe(`A-100,BL-INV,${w.m1},3,13.2,13,4.00,1,0.0676`);
    expect(csv[4]).toBe(`A-100,BL-INV,${w.m1},,,,,3,0.5300`);
    expect(csv[7]).toBe("Total,,,,,,,4,0.9172");
  });

  it("exports the ticked cards without JavaScript; tenancy, viewer and plan rules as the other exports", async () => {
    const w = await world();
    const viewer = await createUser(w.org.id, { role: "viewer" });
    const viewerCookie = await webCookie(viewer.id);
    // The cards' batch form: the ticked boxes repeat measurement_ids; the export button is for viewers too.
    const body = new URLSearchParams([
      ["intent", "batch"],
      ["measurement_ids", String(w.m1)],
      ["measurement_ids", String(w.m2)],
      ["batch_action", "export"],
    ]);
    const res = await fetch(`${baseUrl()}/measurements/container?container=${w.ca}`, {
      method: "POST",
      headers: { Cookie: viewerCookie, Origin: baseUrl() },
      body,
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/measurements/container?container=${w.ca}`);
    const row = await db()
      .selectFrom("exports")
      .selectAll()
      .where("organization_id", "=", w.org.id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(row.report_type).toBe("container_log_by_log_excel");
    expect(row.params).toEqual({ measurement_ids: [w.m1, w.m2] });
    expect((await waitForExport(row.id)).status).toBe(1);
    const page = await api(`/measurements/container?open=${w.bill}&container=${w.ca}`, { cookie: viewerCookie });
    expect(page.data).toContain("batch-export-log-by-log");
    expect(page.data).toContain("export-button-container_log_by_log_excel");

    // Nothing ticked: the form's error, no export.
    const empty = await fetch(`${baseUrl()}/measurements/container`, {
      method: "POST",
      headers: { Cookie: viewerCookie, Origin: baseUrl() },
      body: new URLSearchParams([
        ["intent", "batch"],
        ["batch_action", "export"],
      ]),
      redirect: "manual",
    });
    expect(empty.status).toBe(422);

    // Another organisation's measurement or container: 404, nothing made.
    const other = await world();
    const before = await db().selectFrom("exports").select("id").execute();
    for (const json of [
      { report_type: "container_log_by_log_excel", measurement_ids: [w.m1] },
      { report_type: "container_log_by_log_excel", measurement_ids: [other.m1, w.m1] },
      { report_type: "container_log_by_log_excel", container_id: w.ca },
    ]) {
      const foreign = await api("/api/web_app/excel_exports", { token: other.token, json });
      expect(foreign.status, JSON.stringify(json)).toBe(404);
    }
    const both = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "container_log_by_log_excel", measurement_ids: [w.m1], container_id: w.ca },
    });
    expect(both.status).toBe(422);
    expect(both.data.errors.measurement_ids).toEqual(["exports:errors.oneSelection"]);
    const timberIds = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "container_log_by_log_excel", storage_id: w.storage.id },
    });
    expect(timberIds.status).toBe(422);
    expect(timberIds.data.errors.storage_id).toEqual(["exports:errors.unsupportedSelection"]);
    expect(await db().selectFrom("exports").select("id").execute()).toEqual(before);
    const off = await containerOrg("admin", []);
    const gated = await api("/api/web_app/excel_exports", {
      token: off.token,
      json: { report_type: "container_log_by_log_excel", measurement_ids: [1] },
    });
    expect(gated.data).toMatchObject({ error: "feature_unavailable", feature: "container_measurements" });
  });
});
