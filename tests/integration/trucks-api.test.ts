import { setupServer } from "msw/node";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
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
import { api, baseUrl } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { deviceUpload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { ablyHandlers, type AblyPublished } from "#tests/mocks/ably";
import { addCheckpoints } from "~/models/truck-route.server";
import { closeRealtime } from "~/services/realtime.server";
import { publishCheckpoints } from "~/services/truck-tracking.server";
import { db } from "~/utils/db.server";
import { resetEnv } from "~/utils/env.server";

async function org(role: "admin" | "measurer" | "viewer" = "admin", features: string[] = ["truck_detection"]) {
  const o = await createOrganization({ features });
  const user = await createUser(o.id, { role });
  const storage = await createStorage(o.id, { name: "Mill gate" });
  return { org: o, user, storage, token: await apiToken(user.id) };
}

const row = (id: number) =>
  db().selectFrom("truck_measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const patch = (token: string, id: number, json: unknown) =>
  api(`/api/web_app/truck_measurements/${id}`, { token, method: "PATCH", json });

// The factory's loads, by hand: 2.5 x 2.4 x 3 = 18 m³ stacked, x 0.68 = 12.24 m³ solid;
// 2.0 x 2.4 x 3 = 14.4 m³ stacked, x 0.7 = 10.08 m³ solid. Truck: 32.4 and 22.32.
describe("GET /truck_measurements/{id}", () => {
  it("answers the truck, its loads and their volumes as computed by hand", async () => {
    const a = await org("viewer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id, { plate: "ABC-123", shipmentNumber: "S-7" });
    const res = await api(`/api/web_app/truck_measurements/${m.id}`, { token: a.token });
    expect(res.status).toBe(200);
    const d = res.data.data;
    expect(d).toMatchObject({ id: m.id, storage_id: a.storage.id, shipment_number: "S-7", load_count: 2 });
    expect(d.truck).toEqual({ id: expect.any(Number), license_plate: "ABC-123" });
    expect(d.stacked_volume).toBeCloseTo(32.4, 10);
    expect(d.volume).toBeCloseTo(22.32, 10);
    expect(d.loads.map((l: { index: number; load_bed_name: string }) => [l.index, l.load_bed_name])).toEqual([
      [0, "Truck"],
      [1, "Trailer"],
    ]);
    expect(d.loads[0].stacked_volume).toBeCloseTo(18, 10);
    expect(d.loads[0].volume).toBeCloseTo(12.24, 10);
    expect(d.loads[1].volume).toBeCloseTo(10.08, 10);
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/truck_measurements/${m.id}`, { token }));
    expect((await api(`/api/web_app/truck_measurements/999999999`, { token: a.token })).status).toBe(404);
  });
});

describe("PATCH /truck_measurements/{id}", () => {
  it("changes, adds and removes loads and recomputes every volume on the server", async () => {
    const a = await org("measurer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const loads = (await api(`/api/web_app/truck_measurements/${m.id}`, { token: a.token })).data.data.loads;
    const res = await patch(a.token, m.id, {
      loads: [
        { id: loads[0].id, height: 3 },
        { height: 1.5, load_width: 2.5, log_length: 4, coefficient: 0.6, load_bed_name: "Extra" },
      ],
      loads_removed: [loads[1].id],
      measurement_type_id: 1,
      weight: 24000,
      weight_density: 1.2,
      volume_formula: "gost",
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    // 3 x 2.4 x 3 = 21.6 stacked, 14.688 solid; 1.5 x 2.5 x 4 = 15 stacked, 9 solid.
    expect(res.data.data.loads).toHaveLength(2);
    expect(res.data.data.loads[0].volume).toBeCloseTo(14.688, 10);
    expect(res.data.data.loads[1]).toMatchObject({ index: 2, load_bed_name: "Extra" });
    expect(res.data.data.loads[1].volume).toBeCloseTo(9, 10);
    const stored = await row(m.id);
    expect(stored.stacked_volume).toBeCloseTo(36.6, 10);
    expect(stored.volume).toBeCloseTo(23.688, 10);
    expect(stored).toMatchObject({
      load_count: 2,
      measurement_type_id: 1,
      weight: 24000,
      weight_density: 1.2,
      volume_formula: "gost",
    });
  });

  it("answers 422 with every field's error and changes nothing", async () => {
    const a = await org();
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const before = await snapshotTables();
    const res = await patch(a.token, m.id, {
      loads: [{ height: -1 }, { id: 999999, height: 2 }, { height: 2, load_width: 2 }, { coefficient: 1.5 }],
      loads_removed: [1],
      weight: "heavy",
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.data.errors)).toEqual(
      expect.arrayContaining(["loads.0.height", "loads.3.coefficient", "weight"]),
    );
    expect(await snapshotTables()).toEqual(before);
    // Well-typed but unknown: the model's own 422, still nothing written.
    const res2 = await patch(a.token, m.id, {
      loads: [
        { id: 999999, height: 2 },
        { height: 2, load_width: 2 },
      ],
      loads_removed: [1],
    });
    expect(res2.status).toBe(422);
    expect(res2.data.errors).toMatchObject({
      "loads.0.id": ["timber:errors.unknown"],
      "loads.1.log_length": ["timber:errors.required"],
      "loads.1.coefficient": ["timber:errors.required"],
      "loads_removed.0": ["timber:errors.unknown"],
    });
    expect(await snapshotTables()).toEqual(before);
  });

  it("refuses a viewer (403) and another organisation (404), changing nothing", async () => {
    const a = await org("viewer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const before = await snapshotTables();
    expect((await patch(a.token, m.id, { weight: 1 })).status).toBe(403);
    expect(await snapshotTables()).toEqual(before);
    await expectOutsiderGets404(({ token }) => patch(token, m.id, { weight: 1 }));
    await expectOutsiderGets404(({ token }) => patch(token, m.id, { loads: [{ height: -5 }] }));
  });
});

describe("POST /truck_measurements/search", () => {
  it("pages a storage's truck measurements 5 at a time, newest first, and filters by plate", async () => {
    const a = await org("viewer");
    const ids: number[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (
          await createTruckMeasurement(a.org.id, a.storage.id, {
            plate: i === 3 ? "XYZ-999" : `ABC-${i}`,
            takenAt: new Date(Date.UTC(2026, 0, 1 + i)),
          })
        ).id,
      );
    const other = await createStorage(a.org.id, { name: "Elsewhere" });
    await createTruckMeasurement(a.org.id, other.id);
    const search = (json: unknown) => api("/api/web_app/truck_measurements/search", { token: a.token, json });
    const p1 = await search({ q: { f: { storage_id: a.storage.id } }, paginate: { per_page: 5, page: 1 } });
    expect(p1.status).toBe(200);
    expect(p1.data.meta).toMatchObject({ total_pages: 2, total_count: 7, per_page: 5 });
    expect(p1.data.measurements.map((m: { id: number }) => m.id)).toEqual(ids.slice(2).reverse());
    const p2 = await search({ q: { f: { storage_id: a.storage.id } }, paginate: { page: 2 } });
    expect(p2.data.measurements.map((m: { id: number }) => m.id)).toEqual([ids[1], ids[0]]);
    const plate = await search({ q: { f: { storage_id: a.storage.id, license_plate: "xyz" } } });
    expect(plate.data.measurements).toHaveLength(1);
    expect(plate.data.measurements[0]).toMatchObject({
      id: ids[3],
      truck: { license_plate: "XYZ-999" },
      load_count: 2,
    });
    expect(plate.data.measurements[0].volume).toBeCloseTo(22.32, 10);
    const one = await search({ q: { f: { measurement_id: ids[5] } } });
    expect(one.data.measurements.map((m: { id: number }) => m.id)).toEqual([ids[5]]);

    const bad = await search({ q: { f: { storage_id: "x" } }, paginate: { per_page: 50, page: 0 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["paginate.page", "paginate.per_page", "q.f.storage_id"]);
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/truck_measurements/search", { token, json: { q: { f: { storage_id: a.storage.id } } } }),
    );
  });
});

describe("DELETE /truck_measurements", () => {
  it("soft-deletes for an editor; refuses a viewer and another organisation", async () => {
    const a = await org("measurer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/truck_measurements", { token, method: "DELETE", json: { measurement_ids: [m.id] } }),
    );
    const viewer = await createUser(a.org.id, { role: "viewer" });
    const before = await snapshotTables();
    const refused = await api("/api/web_app/truck_measurements", {
      token: await apiToken(viewer.id),
      method: "DELETE",
      json: { measurement_ids: [m.id] },
    });
    expect(refused.status).toBe(403);
    expect(await snapshotTables()).toEqual({ ...before, sessions: expect.anything() });
    const bad = await api("/api/web_app/truck_measurements", { token: a.token, method: "DELETE", json: {} });
    expect(bad.status).toBe(422);
    const res = await api("/api/web_app/truck_measurements", {
      token: a.token,
      method: "DELETE",
      json: { measurement_ids: [m.id] },
    });
    expect(res).toMatchObject({ status: 200, data: { deleted: 1 } });
    expect((await row(m.id)).deleted_at).not.toBeNull();
    expect((await api(`/api/web_app/truck_measurements/${m.id}`, { token: a.token })).status).toBe(404);
  });
});

describe("routes and checkpoints", () => {
  it("lists a measurement's routes, a route's checkpoints in time order, and the active routes", async () => {
    const a = await org("viewer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id, { plate: "LIVE-1" });
    const done = await createTruckRoute(a.org.id, m.id, { finished: true, points: [[58.1, 26.1]] });
    const live = await createTruckRoute(a.org.id, m.id, {
      startedAt: new Date(Date.now() - 600_000),
      points: [
        [58.2, 26.2],
        [58.3, 26.3],
      ],
    });
    const routes = await api(`/api/web_app/truck_measurements/${m.id}/routes`, { token: a.token });
    expect(routes.status).toBe(200);
    expect(routes.data.data.map((r: { id: number }) => r.id)).toEqual([done.id, live.id]);
    expect(routes.data.data[1].last_checkpoint).toMatchObject({
      latitude: 58.3,
      longitude: 26.3,
      truck_route_id: live.id,
    });
    const cps = await api(`/api/web_app/truck_routes/${live.id}/checkpoints`, { token: a.token });
    expect(cps.data.data.map((c: { latitude: number }) => c.latitude)).toEqual([58.2, 58.3]);
    const active = await api("/api/web_app/truck_measurements/active_routes", { token: a.token });
    expect(active.status).toBe(200);
    expect(active.data.data).toEqual([
      expect.objectContaining({
        id: live.id,
        license_plate: "LIVE-1",
        last_checkpoint: expect.objectContaining({ latitude: 58.3 }),
      }),
    ]);
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/truck_routes/${live.id}/checkpoints`, { token }));
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/truck_measurements/${m.id}/routes`, { token }));
    // The live map is the truck_detection feature's.
    const plain = await org("admin", []);
    const gated = await api("/api/web_app/truck_measurements/active_routes", { token: plain.token });
    expect(gated).toMatchObject({ status: 403, data: { error: "feature_unavailable", feature: "truck_detection" } });
  });

  it("takes checkpoints from the device: resent and out-of-order batches, nothing twice, none before the start", async () => {
    const a = await org();
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const device = await createDevice(a.org.id);
    const startedAt = new Date(Date.now() - 3600_000);
    const start = () =>
      api("/api/device/truck_routes", {
        token: device.token,
        json: { client_id: "route-a", truck_measurement_id: m.id, started_at: startedAt.toISOString() },
      });
    const first = await start();
    expect(first.status, JSON.stringify(first.data)).toBe(201);
    const routeId = first.data.data.id;
    expect(await start()).toMatchObject({ status: 200, data: { data: { id: routeId } } });

    const at = (min: number) => new Date(startedAt.getTime() + min * 60_000).toISOString();
    const cp = (n: number, lat: number) => ({ client_id: `c${n}`, latitude: lat, longitude: 24, recorded_at: at(n) });
    const send = (checkpoints: unknown[], token = device.token) =>
      api(`/api/device/truck_routes/${routeId}/checkpoints`, { token, json: { checkpoints } });

    // The later batch arrives first, then the earlier one, then the later one again.
    expect((await send([cp(3, 59.3), cp(4, 59.4)])).data).toEqual({ stored: 2, received: 2 });
    expect((await send([cp(1, 59.1), cp(2, 59.2)])).data).toEqual({ stored: 2, received: 2 });
    expect((await send([cp(3, 59.3), cp(4, 59.4), cp(5, 59.5)])).data).toEqual({ stored: 1, received: 3 });
    const points = await db()
      .selectFrom("truck_checkpoints")
      .select(["client_id", "latitude"])
      .where("truck_route_id", "=", routeId)
      .orderBy("recorded_at")
      .execute();
    expect(points.map((p) => p.client_id)).toEqual(["c1", "c2", "c3", "c4", "c5"]);
    // The last position is the newest recorded, not the last received.
    const route = await db().selectFrom("truck_routes").selectAll().where("id", "=", routeId).executeTakeFirstOrThrow();
    expect([route.last_latitude, route.last_recorded_at?.toISOString()]).toEqual([59.5, at(5)]);
    // Recorded exactly at the start is accepted.
    expect((await send([cp(0, 59.0)])).data).toEqual({ stored: 1, received: 1 });

    // Before the route's start: 422 for the batch, nothing stored.
    const before = await snapshotTables();
    const early = await send([
      cp(6, 59.6),
      { ...cp(7, 59.7), recorded_at: new Date(startedAt.getTime() - 1000).toISOString() },
    ]);
    expect(early.status).toBe(422);
    expect(early.data.errors).toEqual({ "checkpoints.1.recorded_at": ["trucks:errors.beforeStart"] });
    const bad = await send([{ client_id: "", latitude: 91, longitude: 0, recorded_at: "soon" }]);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual([
      "checkpoints.0.client_id",
      "checkpoints.0.latitude",
      "checkpoints.0.recorded_at",
    ]);
    expect(await snapshotTables()).toEqual(before);

    // Another organisation's device: 404 for start, checkpoints and finish; nothing changes.
    const other = await createOrganization();
    const outsider = await createDevice(other.id);
    const snap = await snapshotTables();
    expect((await send([cp(8, 1)], outsider.token)).status).toBe(404);
    expect(
      (
        await api("/api/device/truck_routes", {
          token: outsider.token,
          json: { client_id: "route-x", truck_measurement_id: m.id, started_at: startedAt.toISOString() },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api(`/api/device/truck_routes/${routeId}`, {
          token: outsider.token,
          method: "PATCH",
          json: { finished_at: at(30) },
        })
      ).status,
    ).toBe(404);
    expect(await snapshotTables()).toEqual(snap);

    const finish = await api(`/api/device/truck_routes/${routeId}`, {
      token: device.token,
      method: "PATCH",
      json: { finished_at: at(30) },
    });
    expect(finish.status).toBe(200);
    expect(finish.data.data.finished_at).toBe(at(30));
  });

  it("publishes each new checkpoint as checkpoint-created to the organisation's SSE subscribers", async () => {
    const a = await org("viewer");
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const device = await createDevice(a.org.id);
    const route = await createTruckRoute(a.org.id, m.id);
    const cookie = await webCookie(a.user.id);
    const controller = new AbortController();
    const res = await fetch(`${baseUrl()}/realtime?channel=organization:${a.org.id}`, {
      headers: { Cookie: cookie },
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    const events: unknown[] = [];
    const timer = setTimeout(() => controller.abort(), 10_000);
    try {
      while (events.length < 2) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let idx: number;
        while ((idx = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          const name = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (name === "ready") {
            const at = (s: number) => new Date(route.startedAt.getTime() + s * 1000).toISOString();
            const sent = await api(`/api/device/truck_routes/${route.id}/checkpoints`, {
              token: device.token,
              json: {
                checkpoints: [
                  { client_id: "b", latitude: 58.5, longitude: 25.5, recorded_at: at(20) },
                  { client_id: "a", latitude: 58.4, longitude: 25.4, recorded_at: at(10) },
                ],
              },
            });
            expect(sent.status).toBe(200);
          } else if (name === "checkpoint-created" && data) events.push(JSON.parse(data));
        }
      }
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    // Oldest first, so the marker ends at the newest position.
    expect(events).toEqual([
      { checkpoint: expect.objectContaining({ truck_route_id: route.id, latitude: 58.4, longitude: 25.4 }) },
      { checkpoint: expect.objectContaining({ truck_route_id: route.id, latitude: 58.5, longitude: 25.5 }) },
    ]);
  });
});

describe("checkpoint-created over Ably", () => {
  const published: AblyPublished[] = [];
  const server = setupServer(...ablyHandlers(published));

  afterEach(async () => {
    server.close();
    delete process.env.ABLY_API_KEY;
    resetEnv();
    await closeRealtime();
  });

  it("publishes the stored checkpoints on the organisation's Ably channel", async () => {
    const a = await org();
    const m = await createTruckMeasurement(a.org.id, a.storage.id);
    const route = await createTruckRoute(a.org.id, m.id);
    server.listen({ onUnhandledRequest: "error" });
    process.env.ABLY_API_KEY = "appid.keyid:secretvalue";
    resetEnv();
    const stored = await addCheckpoints(db(), { organizationId: a.org.id }, route.id, [
      { client_id: "x", latitude: 57.9, longitude: 24.1, recorded_at: new Date(route.startedAt.getTime() + 5000) },
    ]);
    await publishCheckpoints(a.org.id, stored);
    expect(published).toHaveLength(1);
    expect(published[0].channel).toBe(`organization:${a.org.id}`);
    const body = published[0].body as { name: string; data: string }[] | { name: string; data: string };
    const message = Array.isArray(body) ? body[0] : body;
    expect(message.name).toBe("checkpoint-created");
    expect(JSON.parse(message.data)).toEqual({
      checkpoint: {
        id: stored[0].id,
        truck_route_id: route.id,
        latitude: 57.9,
        longitude: 24.1,
        recorded_at: stored[0].recorded_at.toISOString(),
      },
    });
  });
});

describe("POST /api/device/truck_measurements", () => {
  it("stores the truck and its loads with volumes from app/domain; a retry creates nothing; bad input is 422", async () => {
    const a = await org();
    await givePlan(a.org.id);
    const device = await createDevice(a.org.id);
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#8a6a45" } })
      .jpeg()
      .toBuffer();
    const measurement = {
      client_id: "truck-1",
      taken_at: "2026-11-20T08:30:00Z",
      storage_id: a.storage.id,
      license_plate: "UP-100",
      shipment_number: "S-9",
      weight: 23500,
      loads: [
        { height: 2.5, load_width: 2.4, log_length: 3, coefficient: 0.68, load_bed_name: "Truck" },
        { height: 2.0, load_width: 2.4, log_length: 3, coefficient: 0.7, load_bed_name: "Trailer" },
      ],
    };
    const path = "/api/device/truck_measurements";
    const res = await deviceUpload(device.token, { measurement, photo: jpeg }, path);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const m = res.data.measurement;
    expect(m).toMatchObject({
      truck: { license_plate: "UP-100" },
      shipment_number: "S-9",
      weight: 23500,
      load_count: 2,
    });
    expect(m.volume).toBeCloseTo(22.32, 10);
    expect(m.stacked_volume).toBeCloseTo(32.4, 10);
    expect((await row(m.id)).photo_key).toBeTruthy();
    const again = await deviceUpload(device.token, { measurement, photo: jpeg }, path);
    expect(again.status).toBe(200);
    expect(again.data.measurement.id).toBe(m.id);
    // The worker makes the renditions: let it, so the "nothing changed" check is fair.
    await waitFor(async () => (await row(m.id)).photo_status === 1 && (await row(m.id)).photo_thumbnail_key !== null, {
      what: "the renditions",
    });
    const other = await createOrganization();
    const foreign = await createStorage(other.id, { name: "Elsewhere" });

    const before = await snapshotTables();
    const bad = await deviceUpload(
      device.token,
      {
        measurement: {
          ...measurement,
          client_id: "truck-2",
          loads: [{ height: 0, load_width: 2, log_length: 3, coefficient: 2 }],
        },
        photo: jpeg,
      },
      path,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["loads.0.coefficient", "loads.0.height"]);
    // Another organisation's storage is not one this device may upload into.
    const refused = await deviceUpload(
      device.token,
      { measurement: { ...measurement, client_id: "truck-3", storage_id: foreign.id }, photo: jpeg },
      path,
    );
    expect(refused.status).toBe(422);
    expect(refused.data.errors).toEqual({ storage_id: ["timber:errors.storageNotAllowed"] });
    expect(await snapshotTables()).toEqual(before);
  });
});
