import { describe, expect, it } from "vitest";
import { seedDemo } from "#db/seed/demo";
import { seedExportLayouts } from "#db/seed/export-layouts";
import {
  apiToken,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { containerOrg, createBill, createContainer, createContainerMeasurement } from "#tests/helpers/containers";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { getExportLayout } from "~/models/export-layout.server";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

// Issue 26, configurable export layouts (docs/decisions/026-exports-and-labels.md): an admin
// saves a layout per target on /settings/export_layouts (plain form posts), and the custom
// exports write the standard exports' cells in the chosen columns, order and headers.

const FLAG = "custom_export_layouts";

async function timberOrg(features = [FLAG]) {
  const org = await createOrganization({ name: "Layout Co", features });
  const admin = await createUser(org.id, { role: "admin" });
  await db()
    .updateTable("users")
    .set({ rounding_precision: 3, volume_unit: "m^3", time_zone: "UTC", locale: "en" })
    .where("id", "=", admin.id)
    .execute();
  const storage = await createStorage(org.id, { name: "North yard" });
  await createMeasurement(org.id, storage.id, { volume: 1.23456, takenAt: new Date(Date.UTC(2026, 9, 1, 8)) });
  await createMeasurement(org.id, storage.id, { volume: 2.5, takenAt: new Date(Date.UTC(2026, 9, 2, 8)) });
  return { org, admin, storage, token: await apiToken(admin.id), cookie: await webCookie(admin.id) };
}

/** The screen's form for a target: every catalogue key, the chosen ones with their order and header. */
function layoutForm(
  target: string,
  keys: string[],
  chosen: Record<string, { position: number; header?: string }>,
): Record<string, string> {
  const form: Record<string, string> = { intent: "save", target };
  keys.forEach((key, i) => {
    form[`columns[${i}].key`] = key;
    if (chosen[key]) {
      form[`columns[${i}].include`] = "on";
      form[`columns[${i}].position`] = String(chosen[key].position);
      form[`columns[${i}].header`] = chosen[key].header ?? "";
    }
  });
  return form;
}

const DASHBOARD_KEYS = [
  "measurementId",
  "storage",
  "takenAt",
  "measuredAt",
  "measurementType",
  "woodType",
  "woodQuality",
  "assortment",
  "length",
  "logs",
  "volume",
  "formula",
  "comment",
];
const BILL_KEYS = ["billOfLading", "container", "containers", "measurements", "logs", "volume"];

async function made(token: string, json: Record<string, unknown>) {
  const res = await api("/api/web_app/excel_exports", { token, json });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  const row = await waitForExport(res.data.id);
  expect([row.status, row.status_detail]).toEqual([1, null]);
  return res.data.id as number;
}

async function sheetRows(id: number, cookie: string, sheetName: string) {
  const wb = await readXlsx((await download(id, { cookie })).body);
  const sheet = wb.getWorksheet(sheetName)!;
  expect(sheet, sheetName).toBeTruthy();
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    rows.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value ?? null));
  });
  return rows;
}

const savedLayouts = (orgId: number) =>
  db().selectFrom("export_layouts").select(["target", "columns"]).where("organization_id", "=", orgId).execute();

describe("export layouts", () => {
  it("saves a dashboard layout from the screen's plain form, and the custom export follows it with the standard figures", async () => {
    const s = await timberOrg();
    const page = await api("/settings/export_layouts", { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.data).toContain("layout-form-dashboard");
    expect(page.data).toContain("layout-form-bill_of_lading");

    const saved = await api("/settings/export_layouts", {
      cookie: s.cookie,
      form: layoutForm("dashboard", DASHBOARD_KEYS, {
        volume: { position: 1, header: "Cubic metres" },
        measurementId: { position: 2 },
        storage: { position: 3, header: "Yard" },
      }),
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/settings/export_layouts");
    const [row] = await savedLayouts(s.org.id);
    expect(row.target).toBe("dashboard");
    expect(typeof row.columns === "string" ? JSON.parse(row.columns) : row.columns).toEqual([
      { key: "volume", header: "Cubic metres" },
      { key: "measurementId", header: null },
      { key: "storage", header: "Yard" },
    ]);
    // The screen shows the saved layout: the headers typed and the order.
    const again = await api("/settings/export_layouts", { cookie: s.cookie });
    expect(again.data).toContain('value="Cubic metres"');

    const standard = await sheetRows(await made(s.token, { report_type: "dashboard_excel" }), s.cookie, "Measurements");
    const custom = await sheetRows(
      await made(s.token, { report_type: "custom_dashboard_excel" }),
      s.cookie,
      "Measurements",
    );
    // Column indices of the standard sheet: id 0, storage 1, volume 10.
    expect(custom[0]).toEqual(["Cubic metres", standard[0][0], "Yard"]);
    expect(custom.slice(1)).toEqual(standard.slice(1).map((r) => [r[10], r[0], r[1]]));
    expect(custom.slice(1).map((r) => r[0])).toEqual([1.235, 2.5]);

    // The button shows on the timber dashboard now that a layout exists.
    const dashboard = await api("/measurements/timber", { cookie: s.cookie });
    expect(dashboard.data).toContain("export-button-custom_dashboard_excel");
  });

  it("refuses bad layouts with 422 and saves nothing: unknown column, no column, too long a header", async () => {
    const s = await timberOrg();
    const unknown = layoutForm("dashboard", DASHBOARD_KEYS, { volume: { position: 1 } });
    unknown["columns[0].key"] = "password_hash";
    unknown["columns[0].include"] = "on";
    const tooLong = "H".repeat(65);
    for (const form of [
      unknown,
      layoutForm("dashboard", DASHBOARD_KEYS, {}),
      layoutForm("dashboard", DASHBOARD_KEYS, { volume: { position: 1, header: tooLong } }),
      layoutForm("nowhere", DASHBOARD_KEYS, { volume: { position: 1 } }),
    ]) {
      const res = await api("/settings/export_layouts", { cookie: s.cookie, form });
      expect(res.status, JSON.stringify(form)).toBe(422);
    }
    const long = await api("/settings/export_layouts", {
      cookie: s.cookie,
      form: layoutForm("dashboard", DASHBOARD_KEYS, { volume: { position: 1, header: tooLong } }),
    });
    // The error beside the field, the typed value kept.
    expect(long.data).toContain("The header can be at most 64 characters.");
    expect(long.data).toContain(`value="${tooLong}"`);
    const none = await api("/settings/export_layouts", {
      cookie: s.cookie,
      form: layoutForm("dashboard", DASHBOARD_KEYS, {}),
    });
    expect(none.data).toContain("Include at least one column.");
    expect(await savedLayouts(s.org.id)).toEqual([]);
  });

  it("the bill-of-lading layout: the container dashboard's rows and figures in the chosen columns", async () => {
    const a = await containerOrg("admin", ["container_measurements", FLAG]);
    await db()
      .updateTable("users")
      .set({ rounding_precision: 3, volume_unit: "m^3", time_zone: "UTC", locale: "en" })
      .where("id", "=", a.user.id)
      .execute();
    const cookie = await webCookie(a.user.id);
    const bill = await createBill(a.org.id, "BL-7");
    const c1 = await createContainer(a.org.id, bill, "A-1");
    const c2 = await createContainer(a.org.id, bill, "B-2");
    await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1, radii: [75, 40] });
    await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c2, radii: [50], logLength: 8 });

    const before = await api("/measurements/container", { cookie });
    expect(before.data).toContain("export-button-container_dashboard_excel");
    expect(before.data).not.toContain("export-button-custom_bill_of_lading_excel");

    const saved = await api("/settings/export_layouts", {
      cookie,
      form: layoutForm("bill_of_lading", BILL_KEYS, {
        container: { position: 1, header: "Box" },
        volume: { position: 2 },
        billOfLading: { position: 3, header: "B/L" },
        logs: { position: 4 },
      }),
    });
    expect(saved.status).toBe(302);
    const after = await api("/measurements/container", { cookie });
    expect(after.data).toContain("export-button-custom_bill_of_lading_excel");

    const token = a.token;
    const standard = await sheetRows(
      await made(token, { report_type: "container_dashboard_excel" }),
      cookie,
      "Bills of lading",
    );
    const custom = await sheetRows(
      await made(token, { report_type: "custom_bill_of_lading_excel" }),
      cookie,
      "Bills of lading",
    );
    expect(custom[0]).toEqual(["Box", standard[0][5], "B/L", standard[0][4]]);
    expect(custom.slice(1)).toEqual(standard.slice(1).map((r) => [r[1], r[5], r[0], r[4]]));
    expect(custom.length).toBe(5); // the header, the bill, its two containers, the total
  });

  it("needs the flag: 422 feature_unavailable, no button", async () => {
    const s = await timberOrg([]);
    await db()
      .insertInto("export_layouts")
      .values({
        organization_id: s.org.id,
        target: "dashboard",
        columns: JSON.stringify([{ key: "volume", header: null }]),
      })
      .execute();
    for (const report_type of ["custom_dashboard_excel", "custom_bill_of_lading_excel"]) {
      const res = await api("/api/web_app/excel_exports", { token: s.token, json: { report_type } });
      expect(res.status, report_type).toBe(422);
      expect(res.data).toMatchObject({ error: "feature_unavailable", feature: FLAG });
    }
    const dashboard = await api("/measurements/timber", { cookie: s.cookie });
    expect(dashboard.status).toBe(200);
    expect(dashboard.data).toContain("export-button-dashboard_excel");
    expect(dashboard.data).not.toContain("export-button-custom_dashboard_excel");
  });

  it("keeps organisations apart: another organisation's layout is never used or shown", async () => {
    const mine = await timberOrg();
    const theirs = await timberOrg();
    await api("/settings/export_layouts", {
      cookie: theirs.cookie,
      form: layoutForm("dashboard", DASHBOARD_KEYS, { comment: { position: 1, header: "Their secret header" } }),
    });
    expect(await savedLayouts(theirs.org.id)).toHaveLength(1);
    const page = await api("/settings/export_layouts", { cookie: mine.cookie });
    expect(page.data).not.toContain("Their secret header");
    const dashboard = await api("/measurements/timber", { cookie: mine.cookie });
    expect(dashboard.data).not.toContain("export-button-custom_dashboard_excel");
    // Without a layout of its own, the organisation's custom export has the whole catalogue.
    const rows = await sheetRows(
      await made(mine.token, { report_type: "custom_dashboard_excel" }),
      mine.cookie,
      "Measurements",
    );
    expect(rows[0]).toHaveLength(DASHBOARD_KEYS.length);
    expect(rows[0]).not.toContain("Their secret header");
    expect(rows).toHaveLength(3);
  });

  it("is for admins: a viewer and a measurer get 403 and save nothing", async () => {
    const s = await timberOrg();
    for (const role of ["viewer", "measurer"] as const) {
      const member = await createUser(s.org.id, { role });
      const cookie = await webCookie(member.id);
      expect((await api("/settings/export_layouts", { cookie })).status, role).toBe(403);
      const post = await api("/settings/export_layouts", {
        cookie,
        form: layoutForm("dashboard", DASHBOARD_KEYS, { volume: { position: 1 } }),
      });
      expect(post.status, role).toBe(403);
    }
    expect(await savedLayouts(s.org.id)).toEqual([]);
  });

  it("the demo seed gives the demo organisation the flag and a layout per target, once", async () => {
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 4 });
    expect(await seedExportLayouts(db(), seeded.organizationId)).toBe(2);
    expect(await seedExportLayouts(db(), seeded.organizationId)).toBe(0);
    const org = await db()
      .selectFrom("organizations")
      .select("features")
      .where("id", "=", seeded.organizationId)
      .executeTakeFirstOrThrow();
    const features = typeof org.features === "string" ? JSON.parse(org.features) : org.features;
    expect(features.filter((f: string) => f === FLAG)).toHaveLength(1);
    const ctx = { organizationId: seeded.organizationId };
    expect((await getExportLayout(db(), ctx, "dashboard"))?.[0]).toEqual({ key: "takenAt", header: "Date" });
    expect((await getExportLayout(db(), ctx, "bill_of_lading"))?.map((c) => c.key)).toEqual([
      "billOfLading",
      "container",
      "logs",
      "volume",
    ]);
  });
});
