import { describe, expect, it } from "vitest";
import {
  apiToken,
  createDevice,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { insertTruckDiameterMeasurement } from "~/models/shipment.server";
import { db } from "~/utils/db.server";

// Issue 21's gaps (docs/decisions/017-trucks.md, "Truck-diameter measurements on the truck
// screens" and "The photo editor"): references and formula of a truck measurement edited through
// PATCH /truck_measurements/{id} by any organisation (history written), truck-diameter
// measurements deleted, listed and restored on the deleted page, listed on the truck dashboard
// under "only truck-diameter", written to the truck Excel; the one-checkpoint ingest path.

// A 1 m reference 400 px long: 4 px per cm. Radii 40 and 60 px: logs of 20 and 30 cm.
// Cylinder, 3 m: pi/4 x (0.2² + 0.3²) x 3 = 0.3063053 m³.
const REF = [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }];
const V = (Math.PI / 4) * (0.04 + 0.09) * 3;

async function org(role: "admin" | "measurer" | "viewer" = "admin") {
  // Not flagged for the shipments screens: everything here is every organisation's.
  const o = await createOrganization({ name: "Haul Diameter Org", cmpc_enabled: false });
  const user = await createUser(o.id, { role });
  await db().updateTable("users").set({ time_zone: "UTC", rounding_precision: 3 }).where("id", "=", user.id).execute();
  const storage = await createStorage(o.id, { name: "A mill gate" });
  return {
    org: o,
    user,
    storage,
    ctx: { organizationId: o.id },
    token: await apiToken(user.id),
    cookie: await webCookie(user.id),
  };
}
type Org = Awaited<ReturnType<typeof org>>;

function diameter(a: Org, values: { plate?: string; takenAt?: Date } = {}) {
  return insertTruckDiameterMeasurement(db(), a.ctx, {
    storage_id: a.storage.id,
    taken_at: values.takenAt ?? new Date("2026-11-20T08:00:00Z"),
    shipment_number: "S-9",
    measurement_type_id: 1,
    log_length: 3,
    trailer_license_plate: values.plate ?? "TR-77",
    load_bed_name: "Trailer",
    detector: "yolo-logs-v3",
    logs: [
      { x: 100, y: 100, r: 40 },
      { x: 300, y: 100, r: 60 },
    ],
    references: REF,
  });
}

const history = (kind: string, id: number) =>
  db()
    .selectFrom("measurement_history")
    .selectAll()
    .where("kind", "=", kind)
    .where("measurement_id", "=", id)
    .orderBy("id")
    .execute();

const rowsOf = (sheet: { getSheetValues(): unknown[] }) =>
  (sheet.getSheetValues() as unknown[][]).filter(Boolean).map((r) => Array.from(r.slice(1), (v) => v ?? null));

describe("PATCH /truck_measurements/{id} {references, volume_formula}", () => {
  it("stores the photo editor's references and formula for an unflagged organisation, totals from the server, history written", async () => {
    const a = await org("measurer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const res = await api(`/api/web_app/truck_measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { references: REF, volume_formula: "jas" },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.data.references).toEqual(REF);
    expect(res.data.data.volume_formula).toBe("jas");
    // The loads' volume does not depend on either: 12.24 + 10.08.
    expect(res.data.data.volume).toBeCloseTo(22.32, 10);
    const row = await db()
      .selectFrom("truck_measurements")
      .select(["reference_lines", "volume_formula", "volume"])
      .where("id", "=", m.id)
      .executeTakeFirstOrThrow();
    expect(row.reference_lines).toEqual(REF);
    expect(row.volume_formula).toBe("jas");
    const [edited] = await history("truck", m.id);
    expect(edited).toMatchObject({ action: "edited", user_id: a.user.id });
    const changes = edited.changes as { fields: Record<string, { before: unknown; after: unknown }> };
    expect(changes.fields.reference_lines).toEqual({ before: null, after: REF });
    expect(changes.fields.volume_formula.after).toBe("jas");
    expect(edited.volume_after).toBeCloseTo(22.32, 10);
  });

  it("answers 422 for a bad reference and 403 for a viewer, changing nothing", async () => {
    const a = await org();
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const viewer = await createUser(a.org.id, { role: "viewer" });
    const viewerToken = await apiToken(viewer.id);
    const before = await snapshotTables();
    const bad = await api(`/api/web_app/truck_measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { references: [{ ...REF[0], size: -1 }] },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors)).toEqual(["references.0.size"]);
    const denied = await api(`/api/web_app/truck_measurements/${m.id}`, {
      token: viewerToken,
      method: "PATCH",
      json: { references: REF },
    });
    expect(denied.status).toBe(403);
    expect(await snapshotTables()).toEqual(before);
  });

  it("opens the photo editor page for an unflagged organisation (references and formula, saved to the spec's call)", async () => {
    const a = await org();
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const page = await api(`/measurements/truck/${m.id}/edit`, { cookie: a.cookie, headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(String(page.data)).toContain('data-testid="editor-title"');
    expect(String(page.data)).toContain(`/measurements/truck/${m.id}`);
    // Another organisation's id is 404.
    const b = await org();
    expect((await api(`/measurements/truck/${m.id}/edit`, { cookie: b.cookie })).status).toBe(404);
  });
});

describe("truck-diameter measurements on the truck screens", () => {
  it("DELETE /truck_diameter_measurements soft-deletes (history), the deleted page lists and restores it", async () => {
    const a = await org();
    const id = await diameter(a);
    const del = (json: unknown, token = a.token) =>
      api("/api/web_app/truck_diameter_measurements", { token, method: "DELETE", json });
    expect((await del({ measurement_ids: [] })).status).toBe(422);
    const viewer = await createUser(a.org.id, { role: "viewer" });
    expect((await del({ measurement_ids: [id] }, await apiToken(viewer.id))).status).toBe(403);
    const b = await org();
    expect((await del({ measurement_ids: [id] }, b.token)).status).toBe(404);
    const ok = await del({ measurement_ids: [id] });
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    const deletedRow = await db()
      .selectFrom("truck_diameter_measurements")
      .select("deleted_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(deletedRow.deleted_at).not.toBeNull();
    expect((await history("truck_diameter", id)).map((h) => h.action)).toEqual(["deleted"]);

    const page = await api("/measurements/timber/deleted", { cookie: a.cookie, headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = String(page.data);
    expect(html).toContain(`data-testid="deleted-truck-diameter-${id}"`);
    expect(html).toContain("TR-77");
    expect(html).toMatch(/data-testid="deleted-truck-diameter-total">0[.,]306</);
    // Another organisation's deleted page does not list it.
    const other = await api("/measurements/timber/deleted", { cookie: b.cookie, headers: { Accept: "text/html" } });
    expect(String(other.data)).not.toContain(`deleted-truck-diameter-${id}"`);

    const restored = await api("/measurements/timber/deleted", {
      cookie: a.cookie,
      form: { intent: "restore", kind: "truck_diameter", id: String(id) },
    });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(
      `/measurements/truck?truck_diameter_measurements_only=true&open=${a.storage.id}`,
    );
    const back = await db()
      .selectFrom("truck_diameter_measurements")
      .select("deleted_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(back.deleted_at).toBeNull();
    expect((await history("truck_diameter", id)).map((h) => h.action)).toEqual(["deleted", "restored"]);
  });

  it('the dashboard\'s "only truck-diameter" box lists them by storage, 5 per page; "only truck" leaves them out', async () => {
    const a = await org();
    await createTruckMeasurement(a.org.id, a.storage.id, { plate: "AAA-111" });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        await diameter(a, { takenAt: new Date(Date.UTC(2026, 10, 1 + i, 8)), plate: i === 0 ? "ZZ-1" : "TR-77" }),
      );
    const screen = (query: string) =>
      api(`/measurements/truck?${query}`, { cookie: a.cookie, headers: { Accept: "text/html" } }).then((r) => {
        expect(r.status).toBe(200);
        return String(r.data);
      });
    const only = await screen(`truck_diameter_measurements_only=true&open=${a.storage.id}`);
    // Six measurements, 12 logs, 6 x 0.306 m³; no truck measurement.
    expect(only).toMatch(/1[.,]838/);
    expect(only).toContain('data-testid="truck-diameter-measurements"');
    expect(only).not.toContain('data-testid="truck-measurements"');
    // Newest first, 5 a page: the oldest is on page 2.
    expect(only).toContain(`truck-diameter-measurement-${ids[5]}"`);
    expect(only).not.toContain(`truck-diameter-measurement-${ids[0]}"`);
    const page2 = await screen(`truck_diameter_measurements_only=true&open=${a.storage.id}&dpage=2`);
    expect(page2).toContain(`truck-diameter-measurement-${ids[0]}"`);
    // The plate filter matches the trailer's plate.
    const plate = await screen(`truck_diameter_measurements_only=true&license_plate=ZZ&open=${a.storage.id}`);
    expect(plate).toContain(`truck-diameter-measurement-${ids[0]}"`);
    expect(plate).not.toContain(`truck-diameter-measurement-${ids[1]}"`);
    const trucksOnly = await screen(`truck_measurements_only=true&open=${a.storage.id}`);
    expect(trucksOnly).toContain('data-testid="truck-measurements"');
    expect(trucksOnly).not.toContain("truck-diameter-measurement-");
    expect(trucksOnly).toMatch(/22[.,]320/);
    // Neither box: both kinds, both lists, and their volumes in separate columns (never summed:
    // both kinds can measure the same truck).
    const both = await screen(`open=${a.storage.id}`);
    expect(both).toContain('data-testid="truck-measurements"');
    expect(both).toContain('data-testid="truck-diameter-measurements"');
    expect(both).toMatch(/22[.,]320 m³<\/td><td class="num">1[.,]838 m³<\/td>/);
    expect(both).not.toMatch(/24[.,]158/);
  });

  it("truck_dashboard_excel carries them in their own sheet under the dashboard's filters, read back with exceljs", async () => {
    const a = await org();
    await createTruckMeasurement(a.org.id, a.storage.id, { plate: "AAA-111" });
    const id = await diameter(a);
    const res = await api("/api/web_app/excel_exports", {
      token: a.token,
      json: { report_type: "truck_dashboard_excel", truck_diameter_measurements_only: true },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const done = await waitForExport(res.data.id, 90_000);
    expect(done.status, String(done.status_detail)).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: a.cookie })).body);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Storages", "Truck measurements", "Truck-diameter measurements"]);
    const storages = rowsOf(wb.worksheets[0]);
    expect(storages[0]).toEqual([
      "Storage",
      "Measurements",
      "Loads",
      "Logs",
      "Solid volume (m³)",
      "Solid volume, truck-diameter (m³)",
    ]);
    // Only truck-diameter: the loads' column is 0, their volume stands apart.
    expect(storages[1]).toEqual(["A mill gate", 1, 0, 2, 0, Number(V.toFixed(3))]);
    expect(rowsOf(wb.worksheets[1])).toHaveLength(1); // the header alone
    const diameters = rowsOf(wb.worksheets[2]);
    expect(diameters[0].slice(0, 3)).toEqual(["Measurement ID", "Storage", "Trailer plate"]);
    expect(diameters).toHaveLength(2);
    const [d] = diameters.slice(1);
    expect([d[0], d[1], d[2], d[3], d[8], d[9], d[11], d[12], d[13]]).toEqual([
      id,
      "A mill gate",
      "TR-77",
      "S-9",
      3,
      2,
      Number(V.toFixed(3)),
      "Trailer",
      "yolo-logs-v3",
    ]);
  });
});

describe("checkpoint ingest, one checkpoint a batch", () => {
  it("stores it once, moves the last position only forward, refuses one before the start", async () => {
    const a = await org();
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const device = await createDevice(a.org.id);
    const startedAt = new Date(Date.now() - 3600_000);
    const started = await api("/api/device/truck_routes", {
      token: device.token,
      json: { client_id: "one-a", truck_measurement_id: m.id, started_at: startedAt.toISOString() },
    });
    const routeId = started.data.data.id;
    const at = (min: number) => new Date(startedAt.getTime() + min * 60_000).toISOString();
    const send = (n: number, lat: number, recorded = at(n)) =>
      api(`/api/device/truck_routes/${routeId}/checkpoints`, {
        token: device.token,
        json: { checkpoints: [{ client_id: `k${n}`, latitude: lat, longitude: 24, recorded_at: recorded }] },
      });
    expect((await send(2, 59.2)).data).toEqual({ stored: 1, received: 1 });
    expect((await send(2, 59.2)).data).toEqual({ stored: 0, received: 1 });
    expect((await send(1, 59.1)).data).toEqual({ stored: 1, received: 1 });
    const route = await db().selectFrom("truck_routes").selectAll().where("id", "=", routeId).executeTakeFirstOrThrow();
    expect([route.last_latitude, route.last_recorded_at?.toISOString()]).toEqual([59.2, at(2)]);
    const early = await send(9, 59.9, new Date(startedAt.getTime() - 1000).toISOString());
    expect(early.status).toBe(422);
    expect(early.data.errors).toEqual({ "checkpoints.0.recorded_at": ["trucks:errors.beforeStart"] });
    const count = await db()
      .selectFrom("truck_checkpoints")
      .select((eb) => eb.fn.countAll<number>().as("c"))
      .where("truck_route_id", "=", routeId)
      .executeTakeFirstOrThrow();
    expect(Number(count.c)).toBe(2);
    // Another organisation's device: 404, nothing stored.
    const other = await createDevice((await createOrganization()).id);
    const foreign = await api(`/api/device/truck_routes/${routeId}/checkpoints`, {
      token: other.token,
      json: { checkpoints: [{ client_id: "x", latitude: 1, longitude: 1, recorded_at: at(3) }] },
    });
    expect(foreign.status).toBe(404);
  });
});
