import { describe, expect, it } from "vitest";
import {
  apiToken,
  createCustomField,
  createDevice,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  givePlan,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { deviceUpload, drawnStack, stackPayload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { computeMeasurementLogs } from "~/domain/measurement-logs";
import { db } from "~/utils/db.server";
import { todayIn } from "~/utils/timber-dates";

async function org(role: "admin" | "measurer" | "viewer" = "admin") {
  const o = await createOrganization();
  await givePlan(o.id);
  const user = await createUser(o.id, { role });
  const storage = await createStorage(o.id, { name: "North yard" });
  return { org: o, user, storage, token: await apiToken(user.id) };
}

async function uploaded(orgId: number, storageId: number, clientId = "m-1", extra: Record<string, unknown> = {}) {
  const device = await createDevice(orgId);
  const { stack, jpeg } = await drawnStack(3);
  const res = await deviceUpload(device.token, {
    measurement: stackPayload(stack, { client_id: clientId, storage_id: storageId, ...extra }),
    photo: jpeg,
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  const id = res.data.measurement.id as number;
  // The worker's renditions change the row; let them finish so table snapshots compare a settled row.
  await waitFor(async () => (await row(id)).photo_status !== 0, { what: `photo of measurement ${id}` });
  return { id, stack, volume: res.data.measurement.volume as number };
}

const row = (id: number) => db().selectFrom("measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("GET /dashboard_filter", () => {
  it("sums logs and volume per storage within the filter, without other organisations' rows", async () => {
    const a = await org();
    const b = await createStorage(a.org.id, { name: "South yard", storage_state_id: 4 });
    await createMeasurement(a.org.id, a.storage.id, { volume: 2, takenAt: new Date("2026-10-01T10:00:00Z") });
    await createMeasurement(a.org.id, a.storage.id, { volume: 3, takenAt: new Date("2026-11-01T10:00:00Z") });
    await createMeasurement(a.org.id, b.id, { volume: 5, takenAt: new Date("2026-11-02T10:00:00Z") });
    const other = await org();
    await createMeasurement(other.org.id, other.storage.id, { volume: 100 });

    const all = await api("/api/web_app/dashboard_filter", { token: a.token });
    expect(all.status).toBe(200);
    expect(
      all.data.storages.map((s: { name: string; volume: number; logs_count: number }) => [
        s.name,
        s.volume,
        s.logs_count,
      ]),
    ).toEqual([
      ["North yard", 5, 6],
      ["South yard", 5, 3],
    ]);
    const ranged = await api(
      `/api/web_app/dashboard_filter?taken_at_start=15.10.2026&taken_at_end=2026-11-01&storage_state_ids=2`,
      { token: a.token },
    );
    expect(ranged.data.storages.map((s: { name: string; volume: number }) => [s.name, s.volume])).toEqual([
      ["North yard", 3],
    ]);
    const included = await api(`/api/web_app/dashboard_filter?measurements_included=true&storage_ids=${b.id}`, {
      token: a.token,
    });
    expect(included.data.storages[0].measurements).toHaveLength(1);
  });

  it("filters by custom field and by comma-separated ids; bad values answer 422", async () => {
    const a = await org();
    await createCustomField(a.org.id, { key: "lot", data_type: "integer" });
    const m1 = await uploaded(a.org.id, a.storage.id, "cf-a", { custom_fields: { lot: 7 } });
    await uploaded(a.org.id, a.storage.id, "cf-b", { custom_fields: { lot: 8 } });
    const byField = await api("/api/web_app/dashboard_filter?custom_fields[lot]=7", { token: a.token });
    expect(byField.data.storages[0].volume).toBeCloseTo(m1.volume, 9);
    const byIds = await api(`/api/web_app/dashboard_filter?measurement_ids=${m1.id},999999`, { token: a.token });
    expect(byIds.data.storages[0].measurements_count).toBe(1);
    const bad = await api(
      "/api/web_app/dashboard_filter?storage_ids=1;2&taken_at_start=31.02.2026&volume_range_start=abc",
      { token: a.token },
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["storage_ids", "taken_at_start", "volume_range_start"]);
  });
});

describe("POST /measurements/search", () => {
  it("pages a storage's measurements 5 at a time, newest first, only the caller's", async () => {
    const a = await org();
    for (let i = 0; i < 7; i++)
      await createMeasurement(a.org.id, a.storage.id, { takenAt: new Date(Date.UTC(2026, 10, 1 + i)) });
    const other = await org();
    await createMeasurement(other.org.id, other.storage.id);
    const page2 = await api("/api/web_app/measurements/search", {
      token: a.token,
      json: { q: { f: { storage_id: a.storage.id } }, paginate: { per_page: 5, page: 2 } },
    });
    expect(page2.status).toBe(200);
    expect(page2.data.meta).toMatchObject({ total_pages: 2, total_count: 7 });
    expect(page2.data.measurements.map((m: { taken_at: string }) => m.taken_at.slice(0, 10))).toEqual([
      "2026-11-02",
      "2026-11-01",
    ]);
    const leak = await api("/api/web_app/measurements/search", {
      token: a.token,
      json: { q: { f: { storage_id: other.storage.id } } },
    });
    expect(leak.data.measurements).toEqual([]);
    const bad = await api("/api/web_app/measurements/search", {
      token: a.token,
      json: { q: { f: { storage_id: "x" } }, paginate: { per_page: 500 } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["paginate.per_page", "q.f.storage_id"]);
  });
});

describe("GET and PATCH /measurements/{id}", () => {
  it("returns fields and extras; tenancy 404", async () => {
    const a = await org();
    const m = await uploaded(a.org.id, a.storage.id);
    const res = await api(
      `/api/web_app/measurements/${m.id}?fields=volume,storage_id&extra_fields=logs,references,logs_sheet`,
      { token: a.token },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.data.data).sort()).toEqual([
      "id",
      "logs",
      "logs_sheet",
      "references",
      "storage_id",
      "volume",
    ]);
    expect(res.data.data.logs_sheet.summary.total_logs).toBe(res.data.data.logs.length);
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/measurements/${m.id}`, { token }));
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/measurements/${m.id}`, { token, method: "PATCH", json: { log_length: 4 } }),
    );
  });

  it("recomputes the volume on the server for details, logs and references", async () => {
    const a = await org("measurer");
    const m = await uploaded(a.org.id, a.storage.id);
    const longer = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { log_length: 6, wood_type_id: 2, measurement_type_id: 2 },
    });
    expect(longer.status, JSON.stringify(longer.data)).toBe(200);
    expect(longer.data.data.volume).toBeCloseTo(m.volume * 2, 9);
    const logs = await db()
      .selectFrom("logs")
      .select(["id"])
      .where("measurement_id", "=", m.id)
      .orderBy("id")
      .execute();
    const removed = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { logs_removed: [logs[0].id] },
    });
    const expected = computeMeasurementLogs(
      m.stack.logs.map((l, i) => ({ ...l, isDeleted: i === 0 })),
      { references: [m.stack.reference], formula: "cylinder", lengthM: 6 },
    );
    expect(removed.data.data.volume).toBeCloseTo(expected.volume, 9);
    expect(removed.data.data.logs.find((l: { id: number }) => l.id === logs[0].id)).toMatchObject({
      isDeleted: true,
      updated: true,
    });
    expect((await row(m.id)).logs_count).toBe(m.stack.logs.length - 1);
    // A reference twice as long in metres: every diameter doubles, the volume quadruples.
    const ref = { ...m.stack.reference, size: m.stack.reference.size * 2 };
    const scaled = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { references: [ref] },
    });
    expect(scaled.data.data.volume).toBeCloseTo(expected.volume * 4, 6);
    const flags = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { poor_detection: true, comment: "check", shipment_number: "S-1" },
    });
    expect(await row(m.id)).toMatchObject({ poor_detection: true, comment: "check", shipment_number: "S-1" });
    expect(flags.status).toBe(200);
  });

  it("answers 422 for bad input, coefficient with logs, required custom fields; 409 when locked; 403 for viewers", async () => {
    const a = await org();
    await createCustomField(a.org.id, { key: "lot", name: "Lot number", required: true });
    const m = await uploaded(a.org.id, a.storage.id, "m-1", { custom_fields: { lot: "A" } });
    const before = await snapshotTables();
    const bad = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { log_length: -1, latitude: 100, volume_formula: "nope", foo: 1 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(
      ["", "latitude", "log_length", "volume_formula"]
        .filter(Boolean)
        .concat(bad.data.errors._ ? ["_"] : [])
        .sort(),
    );
    const coef = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { coefficient: 0.6 },
    });
    expect(coef.status).toBe(422);
    expect(Object.keys(coef.data.errors)).toEqual(["coefficient"]);
    const required = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { custom_fields: { lot: null } },
    });
    expect(required.status).toBe(422);
    expect(required.data.errors).toEqual({ "custom_fields.lot": ["timber:errors.requiredCustomField"] });
    expect(await snapshotTables()).toEqual(before);

    const viewer = await createUser(a.org.id, { role: "viewer" });
    const denied = await api(`/api/web_app/measurements/${m.id}`, {
      token: await apiToken(viewer.id),
      method: "PATCH",
      json: { log_length: 4 },
    });
    expect(denied.status).toBe(403);
    // A measurer on this storage only may edit it.
    const local = await createUser(a.org.id, { role: "viewer" });
    await db()
      .insertInto("roles")
      .values({
        user_id: local.id,
        organization_id: a.org.id,
        name: "measurer",
        assignable_type: "Storage",
        assignable_id: a.storage.id,
      })
      .execute();
    expect(
      (
        await api(`/api/web_app/measurements/${m.id}`, {
          token: await apiToken(local.id),
          method: "PATCH",
          json: { log_length: 4 },
        })
      ).status,
    ).toBe(200);

    await db().updateTable("measurements").set({ inventory_id: 1 }).where("id", "=", m.id).execute();
    const locked = await api(`/api/web_app/measurements/${m.id}`, {
      token: a.token,
      method: "PATCH",
      json: { log_length: 5 },
    });
    expect(locked.status).toBe(409);
  });

  it("measurement_area without logs: contour volume from area, length and coefficient", async () => {
    const a = await org();
    const device = await createDevice(a.org.id);
    const { jpeg } = await drawnStack(4);
    // A 400 x 200 px face at 4 px/cm is 1 m x 0.5 m = 0.5 m²; x 3 m x 0.6 = 0.9 m³.
    const res = await deviceUpload(device.token, {
      measurement: {
        client_id: "contour",
        taken_at: new Date().toISOString(),
        storage_id: a.storage.id,
        log_length: 3,
        coefficient: 0.6,
        references: [{ x1: 0, y1: 10, x2: 400, y2: 10, size: 1 }],
        measurement_area: [
          { x: 0, y: 0 },
          { x: 400, y: 0 },
          { x: 400, y: 200 },
          { x: 0, y: 200 },
        ],
      },
      photo: jpeg,
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data.measurement.volume).toBeCloseTo(0.9, 9);
    const patched = await api(`/api/web_app/measurements/${res.data.measurement.id}`, {
      token: a.token,
      method: "PATCH",
      json: { coefficient: 0.5 },
    });
    expect(patched.data.data.volume).toBeCloseTo(0.75, 9);
  });

  it("load_lines from the editor: stored as drawn, a one-point line is a 422 that changes nothing", async () => {
    const a = await org();
    const device = await createDevice(a.org.id);
    const { jpeg } = await drawnStack(6);
    const res = await deviceUpload(device.token, {
      measurement: {
        client_id: "lines",
        taken_at: new Date().toISOString(),
        storage_id: a.storage.id,
        log_length: 3,
        references: [{ x1: 0, y1: 10, x2: 400, y2: 10, size: 1 }],
      },
      photo: jpeg,
    });
    const id = res.data.measurement.id as number;
    const lines = [
      [
        { x: 10, y: 20 },
        { x: 300, y: 25 },
        { x: 600, y: 22 },
      ],
    ];
    const ok = await api(`/api/web_app/measurements/${id}`, {
      token: a.token,
      method: "PATCH",
      json: { load_lines: lines },
    });
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    expect((await row(id)).load_lines).toEqual(lines);
    const before = await snapshotTables();
    const bad = await api(`/api/web_app/measurements/${id}`, {
      token: a.token,
      method: "PATCH",
      json: { load_lines: [[{ x: 1, y: 1 }]] },
    });
    expect(bad.status).toBe(422);
    expect(bad.data.errors["load_lines.0"]).toEqual(["timber:errors.loadLine"]);
    expect(await snapshotTables()).toEqual(before);
    const cleared = await api(`/api/web_app/measurements/${id}`, {
      token: a.token,
      method: "PATCH",
      json: { load_lines: [] },
    });
    expect(cleared.status).toBe(200);
    expect((await row(id)).load_lines).toBeNull();
  });
});

describe("POST /manual_measurements", () => {
  it("creates a manual measurement; refuses dates before the last confirmed inventory and bad input", async () => {
    const a = await org();
    const ok = await api("/api/web_app/manual_measurements", {
      token: a.token,
      json: {
        manual_measurement: {
          taken_at: "2026-11-01T10:00:00Z",
          measurement_type_id: 1,
          volume: 12.5,
          storage_id: a.storage.id,
          comment: "by hand",
        },
      },
    });
    expect(ok.status, JSON.stringify(ok.data)).toBe(201);
    expect(await row(ok.data.data.id)).toMatchObject({
      type: "manual",
      volume: 12.5,
      comment: "by hand",
      storage_id: a.storage.id,
    });
    await db()
      .updateTable("storages")
      .set({ last_inventory_confirmed_at: new Date("2026-11-10T00:00:00Z") })
      .where("id", "=", a.storage.id)
      .execute();
    const before = await snapshotTables();
    const early = await api("/api/web_app/manual_measurements", {
      token: a.token,
      json: {
        manual_measurement: {
          taken_at: "2026-11-01T10:00:00Z",
          measurement_type_id: 1,
          volume: 1,
          storage_id: a.storage.id,
        },
      },
    });
    expect(early.status).toBe(422);
    expect(early.data.errors).toEqual({ "manual_measurement.taken_at": ["timber:errors.beforeInventory"] });
    const bad = await api("/api/web_app/manual_measurements", {
      token: a.token,
      json: { manual_measurement: { taken_at: "x", measurement_type_id: 9, volume: "a", storage_id: a.storage.id } },
    });
    expect(Object.keys(bad.data.errors).sort()).toEqual([
      "manual_measurement.measurement_type_id",
      "manual_measurement.taken_at",
      "manual_measurement.volume",
    ]);
    expect(await snapshotTables()).toEqual(before);
    // Another organisation's storage in the body: refused by field, nothing written.
    const outsider = await org();
    const beforeForeign = await snapshotTables();
    const foreign = await api("/api/web_app/manual_measurements", {
      token: outsider.token,
      json: {
        manual_measurement: {
          taken_at: "2026-12-01T10:00:00Z",
          measurement_type_id: 1,
          volume: 1,
          storage_id: a.storage.id,
        },
      },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.data.errors).toEqual({ "manual_measurement.storage_id": ["timber:errors.unknownStorage"] });
    expect(await snapshotTables()).toEqual(beforeForeign);
  });
});

describe("move, delete, deleted list, markers, storage delete", () => {
  it("moves and soft-deletes; the deleted list shows them by storage with totals; measurements in an inventory stay", async () => {
    const a = await org();
    const target = await createStorage(a.org.id, { name: "Target" });
    const m1 = await createMeasurement(a.org.id, a.storage.id, { volume: 1.2345 });
    const m2 = await createMeasurement(a.org.id, a.storage.id, { volume: 2 });
    const locked = await createMeasurement(a.org.id, a.storage.id);
    await db().updateTable("measurements").set({ inventory_id: 5 }).where("id", "=", locked.id).execute();

    const moved = await api("/api/web_app/measurements/move_storage", {
      token: a.token,
      method: "PATCH",
      json: { move_storage: [{ measurement_id: m1.id, storage_id: target.id }] },
    });
    expect(moved.status).toBe(200);
    expect((await row(m1.id)).storage_id).toBe(target.id);
    const before = await snapshotTables();
    const refused = await api("/api/web_app/measurements/move_storage", {
      token: a.token,
      method: "PATCH",
      json: { move_storage: [{ measurement_id: locked.id, storage_id: target.id }] },
    });
    expect(refused.status).toBe(422);
    expect(
      (
        await api("/api/web_app/measurements", {
          token: a.token,
          method: "DELETE",
          json: { measurement_ids: [locked.id] },
        })
      ).status,
    ).toBe(422);
    expect(
      (await api("/api/web_app/measurements", { token: a.token, method: "DELETE", json: { measurement_ids: [] } }))
        .status,
    ).toBe(422);
    expect(await snapshotTables()).toEqual(before);

    const deleted = await api("/api/web_app/measurements", {
      token: a.token,
      method: "DELETE",
      json: { measurement_ids: [m1.id, m2.id] },
    });
    expect(deleted.status).toBe(200);
    expect((await row(m1.id)).deleted_at).not.toBeNull();
    const list = await api("/api/web_app/measurements/deleted", { token: a.token, json: {} });
    expect(
      list.data.storages.map((s: { name: string; measurements: unknown[] }) => [s.name, s.measurements.length]),
    ).toEqual([
      ["North yard", 1],
      ["Target", 1],
    ]);
    expect(list.data.total_volume).toBe(3.235);
    // A date is a day on the user's wall clock (the users.time_zone default, Tallinn), not the UTC day.
    const [y, mo, day] = todayIn("Europe/Tallinn").split("-");
    const d = `${day}.${mo}.${y}`;
    expect(
      (
        await api("/api/web_app/measurements/deleted", {
          token: a.token,
          json: { created_at_from: d, created_at_until: d },
        })
      ).data.storages,
    ).toHaveLength(2);
    expect(
      (
        await api("/api/web_app/measurements/deleted", {
          token: a.token,
          json: { created_at_from: "2001-01-01", created_at_until: "2001-01-02" },
        })
      ).data.storages,
    ).toHaveLength(0);
    expect(
      (await api("/api/web_app/measurements/deleted", { token: a.token, json: { created_at_from: "soon" } })).status,
    ).toBe(422);
    const other = await org();
    expect((await api("/api/web_app/measurements/deleted", { token: other.token, json: {} })).data.storages).toEqual(
      [],
    );
  });

  it("tenancy: move, delete and markers of another organisation answer 404 and change nothing", async () => {
    const a = await org();
    const m = await createMeasurement(a.org.id, a.storage.id);
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/measurements/move_storage", {
        token,
        method: "PATCH",
        json: { move_storage: [{ measurement_id: m.id, storage_id: a.storage.id }] },
      }),
    );
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/measurements", { token, method: "DELETE", json: { measurement_ids: [m.id] } }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/measurements/markers/storage/${a.storage.id}`, { token }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/storages/${a.storage.id}`, { token, method: "DELETE" }),
    );
  });

  it("markers list located measurements of the storage", async () => {
    const a = await org();
    const m = await uploaded(a.org.id, a.storage.id);
    await createMeasurement(a.org.id, a.storage.id); // no coordinates
    const res = await api(`/api/web_app/measurements/markers/storage/${a.storage.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.data.items.map((i: { id: number; latitude: number }) => [i.id, i.latitude])).toEqual([[m.id, 58.3776]]);
  });

  it("DELETE /storages/{id}: soft-deletes with its measurements; the default storage is refused", async () => {
    const a = await org();
    const m = await createMeasurement(a.org.id, a.storage.id);
    const def = await createStorage(a.org.id, { name: "Default" });
    await db().updateTable("organizations").set({ default_storage_id: def.id }).where("id", "=", a.org.id).execute();
    const before = await snapshotTables();
    const refused = await api(`/api/web_app/storages/${def.id}`, { token: a.token, method: "DELETE" });
    expect(refused.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);
    const measurer = await createUser(a.org.id, { role: "measurer" });
    expect(
      (await api(`/api/web_app/storages/${a.storage.id}`, { token: await apiToken(measurer.id), method: "DELETE" }))
        .status,
    ).toBe(403);
    const ok = await api(`/api/web_app/storages/${a.storage.id}`, { token: a.token, method: "DELETE" });
    expect(ok.status).toBe(204);
    expect((await row(m.id)).deleted_at).not.toBeNull();
    expect((await api(`/api/web_app/storages/${a.storage.id}`, { token: a.token, method: "DELETE" })).status).toBe(404);
  });
});
