import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  apiToken,
  createDevice,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createTruckRoute,
  createUser,
  givePlan,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { deviceUpload } from "#tests/helpers/timber";
import { findOrCreateShipment, insertTruckDiameterMeasurement } from "~/models/shipment.server";
import { db } from "~/utils/db.server";

// Issue 22: the shipments dashboard of a pulp mill (docs/decisions/023-shipments.md).

// A 1 m reference 400 px long: 4 px per cm. Radius 40 px is a 20 cm log, 60 px a 30 cm one.
// Cylinder, 3 m: pi/4 x 0.2² x 3 = 0.0942478 m³; pi/4 x 0.3² x 3 = 0.2120575 m³.
const REF = [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }];
const V20 = (Math.PI / 4) * 0.04 * 3;
const V30 = (Math.PI / 4) * 0.09 * 3;
const V25 = (Math.PI / 4) * 0.0625 * 3;

async function flagged(role: "admin" | "measurer" | "viewer" = "admin", cmpc = true) {
  const o = await createOrganization({ cmpc_enabled: cmpc });
  const user = await createUser(o.id, { role });
  const storage = await createStorage(o.id, { name: "Mill gate" });
  return { org: o, user, storage, token: await apiToken(user.id), ctx: { organizationId: o.id } };
}

type Org = Awaited<ReturnType<typeof flagged>>;

function diameter(a: Org, values: { shipment: string; type: number; radii: number[]; takenAt?: Date }) {
  return insertTruckDiameterMeasurement(db(), a.ctx, {
    storage_id: a.storage.id,
    taken_at: values.takenAt ?? new Date("2026-11-20T08:00:00Z"),
    shipment_number: values.shipment,
    measurement_type_id: values.type,
    log_length: 3,
    trailer_license_plate: "TR-1",
    load_bed_name: "Trailer",
    detector: "yolo-logs-v3",
    logs: values.radii.map((r, i) => ({ x: 100 + i * 150, y: 100, r })),
    references: REF,
  });
}

async function truck(a: Org, shipment: string, type: number) {
  const m = await createTruckMeasurement(a.org.id, a.storage.id, { plate: "ABC-1", shipmentNumber: shipment });
  await db().updateTable("truck_measurements").set({ measurement_type_id: type }).where("id", "=", m.id).execute();
  return m;
}

/** A constructed shipment: a truck (22.32 m³, incoming) with a route, diameters in and out. */
async function constructed(a: Org) {
  const t = await truck(a, "S-100", 1);
  await createTruckRoute(a.org.id, t.id, {
    points: [
      [58.38, 26.72],
      [58.5, 26.5],
    ],
  });
  const incoming = await diameter(a, { shipment: "S-100", type: 1, radii: [40, 60] });
  const outgoing = await diameter(a, { shipment: "S-100", type: 2, radii: [40, 60, 50] });
  return { truckId: t.id, incoming, outgoing };
}

const dashboard = (a: Org, query = "") => api(`/api/web_app/dashboard_filter/cmpc${query}`, { token: a.token });

describe("GET /dashboard_filter/cmpc", () => {
  it("sums the incoming and outgoing sides of a constructed shipment by hand", async () => {
    const a = await flagged("viewer");
    await constructed(a);
    // Measured only at the supplier, no route.
    await diameter(a, { shipment: "S-200", type: 2, radii: [60] });
    const res = await dashboard(a);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    const [s200, s100] = res.data.shipments;
    expect(s100).toMatchObject({
      number: "S-100",
      incoming_logs_count: 2,
      outgoing_logs_count: 3,
      route_count: 1,
    });
    // Incoming volume is the truck's loads (22.32 m³), not the diameters' 0.306 m³ as well.
    expect(s100.incoming_volume).toBeCloseTo(22.32, 10);
    expect(s100.outgoing_volume).toBeCloseTo(V20 + V30 + V25, 10);
    expect(s100.truck_measurements).toHaveLength(1);
    expect(s100.truck_diameter_measurements).toHaveLength(2);
    expect(s100.truck_routes[0].checkpoints).toEqual([
      { latitude: 58.38, longitude: 26.72 },
      { latitude: 58.5, longitude: 26.5 },
    ]);
    expect(s200).toMatchObject({ number: "S-200", incoming_logs_count: 0, outgoing_logs_count: 1, route_count: 0 });
    expect(s200.incoming_volume).toBe(0);
    expect(s200.outgoing_volume).toBeCloseTo(V30, 10);
    // The total: S-100's incoming side (it was measured at the mill) and S-200's outgoing side.
    expect(res.data.summary.shipments_count).toBe(2);
    expect(res.data.summary.total_volume).toBeCloseTo(22.32 + V30, 10);
    expect(res.data.meta.total_pages).toBe(1);

    const completed = await dashboard(a, "?route_status=completed");
    expect(completed.data.shipments.map((s: { number: string }) => s.number)).toEqual(["S-100"]);
    const none = await dashboard(a, "?route_status=none&shipment_number=200");
    expect(none.data.shipments.map((s: { number: string }) => s.number)).toEqual(["S-200"]);
    expect(none.data.summary.total_volume).toBeCloseTo(V30, 10);
  });

  it("pages shipments 10 at a time with a window of up to 3 page numbers", async () => {
    const a = await flagged();
    await db()
      .insertInto("shipments")
      .values(
        Array.from({ length: 55 }, (_, i) => ({
          organization_id: a.org.id,
          number: `P-${String(i + 1).padStart(2, "0")}`,
          created_at: new Date(Date.UTC(2026, 9, 1) + i * 3600_000),
        })),
      )
      .execute();
    const first = await dashboard(a, "?page=1");
    expect(first.data.meta).toMatchObject({ page: 1, total_pages: 6, total_count: 55 });
    expect(first.data.pagination).toEqual({ pages: [1, 2, 3], first: null, prev: null, next: 2, last: 6 });
    expect(first.data.shipments[0].number).toBe("P-55");
    const middle = await dashboard(a, "?page=3");
    expect(middle.data.pagination).toEqual({ pages: [2, 3, 4], first: 1, prev: 2, next: 4, last: 6 });
    expect(middle.data.shipments.map((s: { number: string }) => s.number)[0]).toBe("P-35");
    const last = await dashboard(a, "?page=6");
    expect(last.data.pagination).toEqual({ pages: [4, 5, 6], first: 1, prev: 5, next: null, last: null });
    expect(last.data.shipments).toHaveLength(5);
    expect(last.data.shipments.at(-1).number).toBe("P-01");
  });

  it("answers 422 with field errors for a bad page, date or status", async () => {
    const a = await flagged();
    const res = await dashboard(a, "?page=abc&created_at_start=32.13.2026&route_status=lost");
    expect(res.status).toBe(422);
    expect(Object.keys(res.data.errors).sort()).toEqual(["created_at_start", "page", "route_status"]);
    const order = await dashboard(a, "?created_at_start=02.11.2026&created_at_end=01.11.2026");
    expect(order.status).toBe(422);
    expect(order.data.errors.created_at_end).toEqual(["shipments:errors.dateOrder"]);
  });
});

describe("an organisation not flagged for the shipments dashboard", () => {
  it("gets 404 from every cmpc call and screen, and nothing changes", async () => {
    const a = await flagged("admin", false);
    const ids = await constructed(a);
    const shipment = await findOrCreateShipment(db(), a.ctx, "S-100");
    const cookie = await webCookie(a.user.id);
    const before = await snapshotTables();
    const calls = [
      dashboard(a),
      api("/api/web_app/cmpc_dashboard/search", { token: a.token, json: { q: { f: { shipment_id: shipment } } } }),
      api(`/api/web_app/measurements/cmpc/truck_diameter/${ids.incoming}`, {
        token: a.token,
        method: "PATCH",
        json: { volume_formula: "jas" },
      }),
      api(`/api/web_app/measurements/cmpc/truck/${ids.truckId}`, {
        token: a.token,
        method: "PATCH",
        json: { volume_formula: "jas" },
      }),
      api("/measurements/cmpc", { cookie }),
      api(`/measurements/cmpc/truck_diameter/${ids.incoming}`, { cookie }),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(404);
    expect(await snapshotTables()).toEqual(before);
  });
});

describe("POST /cmpc_dashboard/search", () => {
  it("answers the shipment's cards; one by id; 422 without a shipment; another organisation's is 404", async () => {
    const a = await flagged("viewer");
    const ids = await constructed(a);
    const shipment = await findOrCreateShipment(db(), a.ctx, "S-100");
    const res = await api("/api/web_app/cmpc_dashboard/search", {
      token: a.token,
      json: { q: { f: { shipment_id: shipment } } },
    });
    expect(res.status).toBe(200);
    expect(res.data.truck_measurements).toHaveLength(1);
    expect(res.data.truck_measurements[0]).toMatchObject({
      id: ids.truckId,
      loads: 2,
      log_lengths: [3],
      coefficients: [0.68, 0.7],
      load_beds: ["Truck", "Trailer"],
      truck: { license_plate: "ABC-1" },
      measurement_type_id: 1,
    });
    const cards = res.data.truck_diameter_measurements;
    expect(cards.map((c: { id: number }) => c.id)).toEqual([ids.incoming, ids.outgoing]);
    expect(cards[0]).toMatchObject({
      logs_count: 2,
      log_length: 3,
      volume_formula: "cylinder",
      trailer_license_plate: "TR-1",
      load_bed_name: "Trailer",
      detector: "yolo-logs-v3",
      measurement_type_id: 1,
    });
    expect(cards[0].volume).toBeCloseTo(V20 + V30, 10);
    const one = await api("/api/web_app/cmpc_dashboard/search", {
      token: a.token,
      json: { q: { f: { shipment_id: shipment, id: ids.outgoing } } },
    });
    expect(one.data.truck_diameter_measurements.map((c: { id: number }) => c.id)).toEqual([ids.outgoing]);
    const bad = await api("/api/web_app/cmpc_dashboard/search", { token: a.token, json: { q: { f: {} } } });
    expect(bad.status).toBe(422);
    expect(bad.data.errors["q.f.shipment_id"]).toBeDefined();
    // A flagged outsider: the id is not theirs.
    const b = await flagged();
    const foreign = await api("/api/web_app/cmpc_dashboard/search", {
      token: b.token,
      json: { q: { f: { shipment_id: shipment } } },
    });
    expect(foreign.status).toBe(404);
  });
});

describe("PATCH /measurements/cmpc/…", () => {
  it("truck_diameter: adds, moves and removes logs, replaces references, sets the formula; recomputed by hand", async () => {
    const a = await flagged("measurer");
    const ids = await constructed(a);
    const path = `/api/web_app/measurements/cmpc/truck_diameter/${ids.incoming}`;
    const got = await api(path, { token: a.token });
    const [l20, l30] = got.data.data.logs;
    expect(got.data.data.volume).toBeCloseTo(V20 + V30, 10);
    const res = await api(path, {
      token: a.token,
      method: "PATCH",
      json: {
        logs: [
          { id: l20.id, r: 50 },
          { x: 900, y: 100, r: 60, cull_id: null, wood_characteristic_id: null },
        ],
        logs_removed: [l30.id],
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    // 25 cm + 30 cm kept; the 30 cm log removed.
    expect(res.data.data.logs_count).toBe(2);
    expect(res.data.data.volume).toBeCloseTo(V25 + V30, 10);
    // A 2 m reference the same 400 px long: every diameter doubles, the volumes x4.
    const scaled = await api(path, {
      token: a.token,
      method: "PATCH",
      json: { references: [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 2 }], volume_formula: "smalian" },
    });
    expect(scaled.status, JSON.stringify(scaled.data)).toBe(422);
    const ok = await api(path, {
      token: a.token,
      method: "PATCH",
      json: { references: [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 2 }] },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.data.volume).toBeCloseTo(4 * (V25 + V30), 10);
    expect(ok.data.data.references).toEqual([{ x1: 0, y1: 500, x2: 400, y2: 500, size: 2 }]);
  });

  it("truck: stores references and the formula; the load volume stays", async () => {
    const a = await flagged("measurer");
    const ids = await constructed(a);
    const path = `/api/web_app/measurements/cmpc/truck/${ids.truckId}`;
    const res = await api(path, { token: a.token, method: "PATCH", json: { references: REF, volume_formula: "jas" } });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.data).toMatchObject({ references: REF, volume_formula: "jas" });
    expect(res.data.data.volume).toBeCloseTo(22.32, 10);
  });

  it("422 with field errors and nothing changed; a viewer is refused; another organisation's is 404", async () => {
    const a = await flagged("measurer");
    const ids = await constructed(a);
    const dPath = `/api/web_app/measurements/cmpc/truck_diameter/${ids.incoming}`;
    const tPath = `/api/web_app/measurements/cmpc/truck/${ids.truckId}`;
    const before = await snapshotTables();
    const bad = [
      [dPath, { logs: [{ r: -1 }] }, "logs.0.r"],
      [dPath, { logs: [{ x: 1, y: 1 }] }, "logs.0"],
      [dPath, { logs_removed: [999999999] }, "logs_removed.0"],
      [dPath, { loads: [] }, "_"],
      [dPath, {}, "_"],
      [tPath, { volume_formula: "no-such" }, "volume_formula"],
      [tPath, { logs: [] }, "_"],
    ] as const;
    for (const [path, json, field] of bad) {
      const res = await api(path, { token: a.token, method: "PATCH", json });
      expect(res.status, `${path} ${JSON.stringify(json)}`).toBe(422);
      expect(Object.keys(res.data.errors)).toContain(field);
    }
    expect(await snapshotTables()).toEqual(before);

    const viewer = await createUser(a.org.id, { role: "viewer" });
    const vt = await apiToken(viewer.id);
    expect((await api(dPath, { token: vt, method: "PATCH", json: { volume_formula: "jas" } })).status).toBe(403);
    expect((await api(tPath, { token: vt, method: "PATCH", json: { volume_formula: "jas" } })).status).toBe(403);

    const b = await flagged();
    const cookie = await webCookie(b.user.id);
    const afterViewer = await snapshotTables();
    for (const res of [
      await api(dPath, { token: b.token, method: "PATCH", json: { volume_formula: "jas" } }),
      await api(tPath, { token: b.token, method: "PATCH", json: { volume_formula: "jas" } }),
      await api(dPath, { token: b.token }),
      await api(`/measurements/cmpc/truck_diameter/${ids.incoming}`, { cookie }),
      await api(`/measurements/cmpc/truck/${ids.truckId}`, { cookie }),
    ])
      expect(res.status).toBe(404);
    expect(await snapshotTables()).toEqual(afterViewer);
    expect((await api(`/api/web_app/measurements/cmpc/logs/${ids.incoming}`, { token: a.token })).status).toBe(404);
  });
});

describe("devices attach measurements to a shipment by its number", () => {
  it("uploads a truck-diameter measurement (shipment made on first use); a truck upload joins it; retry and 422", async () => {
    const a = await flagged();
    await givePlan(a.org.id);
    const device = await createDevice(a.org.id);
    const jpeg = await sharp({ create: { width: 1000, height: 800, channels: 3, background: "#8a6a45" } })
      .jpeg()
      .toBuffer();
    const measurement = {
      client_id: "td-1",
      taken_at: "2026-11-20T08:30:00Z",
      storage_id: a.storage.id,
      shipment_number: "NEW-77",
      measurement_type_id: 2,
      log_length: 3,
      trailer_license_plate: "TRL-9",
      load_bed_name: "Trailer",
      detector: "yolo-logs-v3",
      logs: [
        { x: 100, y: 100, r: 40 },
        { x: 300, y: 100, r: 60 },
      ],
      references: REF,
    };
    const path = "/api/device/truck_diameter_measurements";
    const res = await deviceUpload(device.token, { measurement, photo: jpeg }, path);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const m = res.data.measurement;
    expect(m).toMatchObject({ shipment_number: "NEW-77", logs_count: 2, trailer_license_plate: "TRL-9" });
    expect(m.volume).toBeCloseTo(V20 + V30, 10);
    expect(m.logs.map((l: { d: number }) => l.d)).toEqual([20, 30]);
    const again = await deviceUpload(device.token, { measurement, photo: jpeg }, path);
    expect(again.status).toBe(200);
    expect(again.data.measurement.id).toBe(m.id);

    const t = await deviceUpload(
      device.token,
      {
        measurement: {
          client_id: "tr-1",
          taken_at: "2026-11-20T09:00:00Z",
          storage_id: a.storage.id,
          shipment_number: "NEW-77",
          measurement_type_id: 1,
          loads: [{ height: 2.5, load_width: 2.4, log_length: 3, coefficient: 0.68 }],
        },
        photo: jpeg,
      },
      "/api/device/truck_measurements",
    );
    expect(t.status, JSON.stringify(t.data)).toBe(201);
    const shipments = await db().selectFrom("shipments").selectAll().where("organization_id", "=", a.org.id).execute();
    expect(shipments.map((s) => s.number)).toEqual(["NEW-77"]);
    const truckRow = await db()
      .selectFrom("truck_measurements")
      .select("shipment_id")
      .where("id", "=", t.data.measurement.id)
      .executeTakeFirstOrThrow();
    expect(truckRow.shipment_id).toBe(shipments[0].id);
    const list = await api("/api/web_app/shipments/list", { token: a.token });
    expect(list.data).toEqual([{ id: shipments[0].id, number: "NEW-77", created_at: expect.any(String) }]);
    const board = await dashboard(a);
    expect(board.data.shipments[0]).toMatchObject({ incoming_logs_count: 0, outgoing_logs_count: 2 });
    expect(board.data.shipments[0].incoming_volume).toBeCloseTo(12.24, 10);

    const bad = await deviceUpload(
      device.token,
      {
        measurement: { ...measurement, client_id: "td-2", log_length: -3, logs: [{ x: 5000, y: 1, r: 5 }] },
        photo: jpeg,
      },
      path,
    );
    expect(bad.status).toBe(422);
    expect(bad.data.errors.log_length).toBeDefined();
  });
});

describe("the shipments screens without JavaScript", () => {
  it("lists shipments, opens a row to its route and cards, and shows a measurement's details", async () => {
    const a = await flagged();
    const ids = await constructed(a);
    const shipment = await findOrCreateShipment(db(), a.ctx, "S-100");
    const cookie = await webCookie(a.user.id);
    const list = await api("/measurements/cmpc", { cookie });
    expect(list.status).toBe(200);
    expect(String(list.data)).toContain("S-100");
    expect(String(list.data)).toContain("Completed (1)");
    const open = await api(`/measurements/cmpc?open=${shipment}`, { cookie });
    expect(String(open.data)).toContain(`card-truck_diameter-${ids.incoming}`);
    expect(String(open.data)).toContain(`card-truck-${ids.truckId}`);
    expect(String(open.data)).toContain("shipment-route-card");
    const detail = await api(`/measurements/cmpc/truck_diameter/${ids.outgoing}`, { cookie });
    expect(detail.status).toBe(200);
    expect(String(detail.data)).toContain("yolo-logs-v3");
    expect((await api(`/measurements/cmpc/container/${ids.outgoing}`, { cookie })).status).toBe(404);
  });
});
