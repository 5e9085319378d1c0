import { describe, expect, it } from "vitest";
import { seedLumber } from "#db/seed/demo";
import { seedLumberDashboard } from "#db/seed/lumber-dashboard";
import {
  apiToken,
  createCustomField,
  createDevice,
  createLumberMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

// The lumber dashboard: GET /dashboard_filter?lumber_measurements=true, the /measurements/lumber
// screen (its loader and its delete form) and lumber_dashboard_excel, against real MySQL.

const ROUTE = encodeURIComponent("routes/_app+/measurements+/lumber+/_index");

async function setup() {
  const org = await createOrganization({ name: "Plank Co" });
  const admin = await createUser(org.id, { role: "admin" });
  await db().updateTable("users").set({ time_zone: "UTC", rounding_precision: 3 }).where("id", "=", admin.id).execute();
  const yard = await createStorage(org.id, { name: "A yard" });
  const shed = await createStorage(org.id, { name: "B shed", storage_state_id: 4 });
  const empty = await createStorage(org.id, { name: "C empty" });
  const device = await createDevice(org.id, { allStorages: true });
  await createCustomField(org.id, { key: "lot", name: "Lot", source_key: "lumber_measurement" });
  const april = new Date("2026-04-10T08:00:00Z");
  const board = { name: "Board 150x50", plank_length: 4200, plank_width: 150, plank_height: 50 };
  const a = await createLumberMeasurement(org.id, yard.id, {
    seed: 3,
    photo: false,
    product: board,
    takenAt: april,
    deviceId: device.id,
  });
  const b = await createLumberMeasurement(org.id, yard.id, {
    seed: 4,
    photo: false,
    productId: a.productId,
    takenAt: new Date("2026-04-12T08:00:00Z"),
  });
  const c = await createLumberMeasurement(org.id, shed.id, {
    seed: 5,
    photo: false,
    product: { name: "Batten 100x25", plank_length: 3000, plank_width: 100, plank_height: 25 },
    takenAt: new Date("2026-05-20T08:00:00Z"),
  });
  await db()
    .updateTable("lumber_measurements")
    .set({ custom_fields: JSON.stringify({ lot: "L-1" }) })
    .where("id", "=", b.id)
    .execute();
  return {
    org,
    admin,
    yard,
    shed,
    empty,
    device,
    a,
    b,
    c,
    token: await apiToken(admin.id),
    cookie: await webCookie(admin.id),
  };
}

type Storage = {
  id: number;
  planks_count: number;
  volume: number;
  measurements_count: number;
  measurements?: number[];
};
const filter = async (token: string, query: Record<string, string>) => {
  const res = await api(
    `/api/web_app/dashboard_filter?${new URLSearchParams({ lumber_measurements: "true", measurements_included: "true", ...query })}`,
    { token },
  );
  return { ...res, byId: new Map<number, Storage>((res.data?.storages ?? []).map((s: Storage) => [s.id, s])) };
};

describe("GET /dashboard_filter?lumber_measurements=true", () => {
  it("answers every storage with its lumber plank count, volume and ids, and honours each filter", async () => {
    const s = await setup();
    const all = await filter(s.token, {});
    expect(all.status).toBe(200);
    expect(all.data.storages.map((x: { id: number }) => x.id)).toEqual([s.yard.id, s.shed.id, s.empty.id]);
    const yard = all.byId.get(s.yard.id)!;
    expect(yard).toMatchObject({
      planks_count: s.a.plankCount + s.b.plankCount,
      measurements_count: 2,
      measurements: [s.a.id, s.b.id],
    });
    expect(yard.volume).toBeCloseTo(s.a.volume + s.b.volume, 9);
    expect(all.byId.get(s.shed.id)).toMatchObject({ planks_count: s.c.plankCount, measurements: [s.c.id] });
    expect(all.byId.get(s.empty.id)).toMatchObject({ planks_count: 0, volume: 0, measurements: [] });
    // Without lumber_measurements=true the same call is the timber dashboard's (no lumber in it).
    const timber = await api("/api/web_app/dashboard_filter", { token: s.token });
    expect(timber.data.storages[0]).toHaveProperty("logs_count", 0);
    expect(timber.data.storages[0]).not.toHaveProperty("planks_count");

    const ids = async (query: Record<string, string>) =>
      [...(await filter(s.token, query)).byId.values()].flatMap((x) => x.measurements ?? []).sort((x, y) => x - y);
    expect(await ids({ lumber_product_ids: String(s.c.productId) })).toEqual([s.c.id]);
    expect(await ids({ lumber_product_ids: String(s.a.productId) })).toEqual([s.a.id, s.b.id]);
    expect(await ids({ taken_at_start: "11.04.2026", taken_at_end: "30.04.2026" })).toEqual([s.b.id]);
    expect(await ids({ storage_state_ids: "4" })).toEqual([s.c.id]);
    expect(await ids({ storage_ids: String(s.yard.id) })).toEqual([s.a.id, s.b.id]);
    expect(await ids({ device_ids: String(s.device.id) })).toEqual([s.a.id]);
    expect(await ids({ measurement_ids: `${s.a.id},${s.c.id}` })).toEqual([s.a.id, s.c.id]);
    expect(await ids({ "custom_fields[lot]": "L-1" })).toEqual([s.b.id]);
    // A key that is not one of the organisation's lumber fields filters nothing.
    expect(await ids({ "custom_fields[nope]": "x" })).toEqual([s.a.id, s.b.id, s.c.id]);
    expect(await ids({ volume_range_start: String(s.c.volume + 1e-9) })).toEqual(
      [s.a, s.b].filter((m) => m.volume > s.c.volume).map((m) => m.id),
    );
    // A storage state filter also drops the other storages from the answer.
    expect([...(await filter(s.token, { storage_state_ids: "4" })).byId.keys()]).toEqual([s.shed.id]);

    // Deleted measurements are not counted.
    await db().updateTable("lumber_measurements").set({ deleted_at: new Date() }).where("id", "=", s.a.id).execute();
    expect((await filter(s.token, {})).byId.get(s.yard.id)).toMatchObject({ planks_count: s.b.plankCount });
  });

  it("is the same for a viewer, shows another organisation nothing, and answers 422 for bad values", async () => {
    const s = await setup();
    const viewer = await createUser(s.org.id, { role: "viewer" });
    const seen = await filter(await apiToken(viewer.id), {});
    expect(seen.status).toBe(200);
    expect(seen.byId.get(s.yard.id)?.planks_count).toBe(s.a.plankCount + s.b.plankCount);

    const other = await createOrganization();
    const outsider = await createUser(other.id, { role: "admin" });
    const theirs = await filter(await apiToken(outsider.id), { measurement_ids: String(s.a.id) });
    expect(theirs.status).toBe(200);
    expect(theirs.byId.has(s.yard.id)).toBe(false);
    expect(JSON.stringify(theirs.data)).not.toContain(`${s.a.id}`);

    const before = await snapshotTables();
    const bad = await filter(s.token, { taken_at_start: "31.02.2026", lumber_product_ids: "1,x" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["lumber_product_ids", "taken_at_start"]);
    expect(await snapshotTables()).toEqual(before);
  });
});

describe("the /measurements/lumber screen", () => {
  it("lists storages with plank counts, hides empty ones, expands a storage page by page", async () => {
    const s = await setup();
    const q = "taken_at_start=01.04.2026&taken_at_end=31.05.2026";
    const res = await api(`/measurements/lumber?${q}&open=${s.yard.id}&_data=${ROUTE}`, { cookie: s.cookie });
    expect(res.status).toBe(200);
    expect(res.data.storages.map((x: { id: number }) => x.id)).toEqual([s.yard.id, s.shed.id, s.empty.id]);
    expect(res.data.storages[0]).toMatchObject({ planks_count: s.a.plankCount + s.b.plankCount, canEdit: true });
    expect(res.data.expanded).toMatchObject({ storageId: s.yard.id, totalCount: 2, totalPages: 1 });
    // Newest first, with the product and its plank length (mm).
    expect(res.data.expanded.measurements.map((m: { id: number }) => m.id)).toEqual([s.b.id, s.a.id]);
    expect(res.data.expanded.measurements[0]).toMatchObject({
      lumber_product_name: "Board 150x50",
      plank_length: 4200,
      plank_count: s.b.plankCount,
    });

    const hidden = await api(`/measurements/lumber?${q}&hide_empty=1&_data=${ROUTE}`, { cookie: s.cookie });
    expect(hidden.data.storages.map((x: { id: number }) => x.id)).toEqual([s.yard.id, s.shed.id]);
    expect(hidden.data.hiddenCount).toBe(1);

    // Five a page: seven measurements in the yard make two pages.
    for (let i = 0; i < 5; i++)
      await createLumberMeasurement(s.org.id, s.yard.id, {
        seed: 10 + i,
        photo: false,
        maxPlanks: 3,
        productId: s.a.productId,
        takenAt: new Date(`2026-04-0${i + 1}T08:00:00Z`),
      });
    const page2 = await api(`/measurements/lumber?${q}&open=${s.yard.id}&page=2&_data=${ROUTE}`, {
      cookie: s.cookie,
    });
    expect(page2.data.expanded).toMatchObject({ page: 2, totalPages: 2, totalCount: 7 });
    expect(page2.data.expanded.measurements).toHaveLength(2);

    // The rendered page: the table, the planks column and a link to the detail.
    const html = await api(`/measurements/lumber?${q}&open=${s.yard.id}`, { cookie: s.cookie });
    expect(html.status).toBe(200);
    expect(html.data).toContain(`data-testid="storage-${s.yard.id}-planks"`);
    expect(html.data).toContain(`href="/measurements/lumber/${s.b.id}"`);
    // The old link opens the detail page.
    expect((await api(`/lumber_measurements/${s.b.id}`, { cookie: s.cookie })).status).toBe(200);
    // /measurements opens the lumber dashboard for a user who worked there last.
    await db().updateTable("users").set({ recent_measurement_mode: "lumber" }).where("id", "=", s.admin.id).execute();
    const landing = await api("/measurements", { cookie: s.cookie });
    expect(landing.status).toBe(302);
    expect(landing.headers.get("location")).toBe("/measurements/lumber");
  });

  it("deletes a lumber measurement from its row (editors only); it shows on the deleted page", async () => {
    const s = await setup();
    const viewer = await webCookie((await createUser(s.org.id, { role: "viewer" })).id);
    const seen = await api(`/measurements/lumber?open=${s.yard.id}&taken_at_start=01.01.2026&_data=${ROUTE}`, {
      cookie: viewer,
    });
    expect(seen.data.storages[0].canEdit).toBe(false);
    const before = await snapshotTables();
    const refused = await api("/measurements/lumber?index", {
      cookie: viewer,
      form: { intent: "delete", measurement_ids: String(s.a.id) },
    });
    expect(refused.status).toBe(302);
    expect(await snapshotTables()).toEqual(before);

    const gone = await api(`/measurements/lumber?index&open=${s.yard.id}`, {
      cookie: s.cookie,
      form: { intent: "delete", measurement_ids: String(s.a.id) },
    });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe(`/measurements/lumber?open=${s.yard.id}`);
    const row = await db()
      .selectFrom("lumber_measurements")
      .select("deleted_at")
      .where("id", "=", s.a.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const deleted = await api("/measurements/timber/deleted", { cookie: s.cookie });
    expect(deleted.data).toContain(`data-testid="deleted-lumber-${s.a.id}"`);
    expect(deleted.data).not.toContain(`data-testid="deleted-lumber-${s.b.id}"`);

    // An inventory's measurement stays.
    await db().updateTable("lumber_measurements").set({ inventory_id: 1 }).where("id", "=", s.b.id).execute();
    const locked = await api("/measurements/lumber?index", {
      cookie: s.cookie,
      form: { intent: "delete", measurement_ids: String(s.b.id) },
    });
    expect(locked.status).toBe(302);
    const b = await db()
      .selectFrom("lumber_measurements")
      .select("deleted_at")
      .where("id", "=", s.b.id)
      .executeTakeFirstOrThrow();
    expect(b.deleted_at).toBeNull();
    expect((await api("/measurements/lumber?index", { cookie: s.cookie, form: { intent: "explode" } })).status).toBe(
      400,
    );
  });

  it("keeps organisations apart: another organisation's screen lists none of it and cannot delete it", async () => {
    const s = await setup();
    const outsider = await createUser((await createOrganization()).id, { role: "admin" });
    const cookie = await webCookie(outsider.id);
    const res = await api(`/measurements/lumber?open=${s.yard.id}&taken_at_start=01.01.2026&_data=${ROUTE}`, {
      cookie,
    });
    expect(res.status).toBe(200);
    expect(res.data.expanded).toBeNull();
    expect(JSON.stringify(res.data)).not.toContain("A yard");
    const before = await snapshotTables();
    const del = await api("/measurements/lumber?index", {
      cookie,
      form: { intent: "delete", measurement_ids: String(s.a.id) },
    });
    expect(del.status).toBe(302);
    expect(await snapshotTables()).toEqual(before);
    await expectOutsiderGets404(({ cookie: c }) => api(`/lumber_measurements/${s.a.id}`, { cookie: c }));
  });
});

describe("lumber_dashboard_excel", () => {
  it("writes the filtered storages and lumber measurements, read back with exceljs", async () => {
    const s = await setup();
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: {
        report_type: "lumber_dashboard_excel",
        taken_at_start: "01.04.2026",
        taken_at_end: "30.04.2026",
        lumber_product_ids: String(s.a.productId),
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: s.cookie })).body);
    const storages = wb.getWorksheet("Storages")!;
    expect(storages.rowCount).toBe(2);
    expect(storages.getRow(1).getCell(4).value).toBe("Planks");
    expect(storages.getRow(2).getCell(1).value).toBe("A yard");
    expect(storages.getRow(2).getCell(3).value).toBe(2);
    expect(storages.getRow(2).getCell(4).value).toBe(s.a.plankCount + s.b.plankCount);
    expect(storages.getRow(2).getCell(5).value).toBeCloseTo(s.a.volume + s.b.volume, 3);
    const sheet = wb.getWorksheet("Measurements")!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(2).getCell(1).value).toBe(s.b.id);
    expect(sheet.getRow(2).getCell(5).value).toBe("Board 150x50");
    expect(sheet.getRow(2).getCell(6).value).toBe(4.2);
    expect(sheet.getRow(2).getCell(7).value).toBe(s.b.plankCount);
    expect(sheet.getRow(3).getCell(1).value).toBe(s.a.id);
  });

  it("answers 422 for a bad filter or an empty selection and writes nothing", async () => {
    const s = await setup();
    const before = await snapshotTables();
    const bad = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "lumber_dashboard_excel", taken_at_start: "31.02.2026", storage_id: s.yard.id },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["storage_id", "taken_at_start"]);
    const none = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "lumber_dashboard_excel", taken_at_start: "01.01.2020", taken_at_end: "02.01.2020" },
    });
    expect(none.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);
  });
});

describe("the demo seed of the lumber dashboard", () => {
  it("adds several lumber measurements over the storages with photos and a lot field, once", async () => {
    const org = await createOrganization();
    const admin = await createUser(org.id, { role: "admin" });
    const first = await createStorage(org.id, { name: "First" });
    const second = await createStorage(org.id, { name: "Second" });
    expect(await seedLumber(db(), fileStorage(), org.id)).toBe(3);
    const queued: number[] = [];
    const added = await seedLumberDashboard(db(), fileStorage(), org.id, {
      enqueuePhoto: async (id) => queued.push(id),
    });
    expect(added).toBe(8);
    expect(queued).toHaveLength(8);
    expect(await seedLumberDashboard(db(), fileStorage(), org.id)).toBe(0);

    const res = await filter(await apiToken(admin.id), {});
    const a = res.byId.get(first.id)!;
    const b = res.byId.get(second.id)!;
    expect(a.measurements_count + b.measurements_count).toBe(11);
    expect(a.measurements_count).toBeGreaterThan(5);
    expect(b.planks_count).toBeGreaterThan(0);
    const lot = await filter(await apiToken(admin.id), { "custom_fields[package_lot]": "LOT-100" });
    expect([...lot.byId.values()].reduce((n, s) => n + s.measurements_count, 0)).toBe(3);
  });
});
