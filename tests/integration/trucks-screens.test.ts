import { describe, expect, it } from "vitest";
import { seedTrucks } from "#db/seed/trucks";
import {
  apiToken,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createTruckRoute,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// The truck screens as a browser without JavaScript uses them: plain GETs and form posts.

async function setup(role: "admin" | "measurer" | "viewer" = "admin", features: string[] = []) {
  const org = await createOrganization({ name: "Haulage Org", features });
  const user = await createUser(org.id, { role });
  const storage = await createStorage(org.id, { name: "Mill gate" });
  const m = await createTruckMeasurement(org.id, storage.id, { plate: "TRK-101" });
  return { org, user, storage, m, cookie: await webCookie(user.id) };
}

const page = (path: string, cookie: string) => api(path, { cookie, headers: { Accept: "text/html" } });
const row = (id: number) =>
  db().selectFrom("truck_measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("truck dashboard without JavaScript", () => {
  it("lists the storages with their truck totals, expands a row, filters by plate", async () => {
    const a = await setup("viewer");
    await createTruckMeasurement(a.org.id, a.storage.id, { plate: "OTHER-1" });
    const outsider = await createOrganization();
    const hidden = await createStorage(outsider.id, { name: "Secret yard" });
    await createTruckMeasurement(outsider.id, hidden.id, { plate: "SECRET-9" });
    const res = await page(`/measurements/truck?open=${a.storage.id}`, a.cookie);
    expect(res.status).toBe(200);
    expect(res.data).toContain("Mill gate");
    expect(res.data).not.toContain("Secret yard");
    expect(res.data).toContain(`data-testid="truck-measurement-${a.m.id}"`);
    expect(res.data).toContain("TRK-101");
    // 2 x 22.32 m³ = 44.64 m³ (the factory's loads).
    expect(res.data).toMatch(/44[.,]64/);
    const filtered = await page(`/measurements/truck?open=${a.storage.id}&license_plate=trk`, a.cookie);
    expect(filtered.data).toContain("TRK-101");
    expect(filtered.data).not.toContain("OTHER-1");
    // The two "only" checkboxes exclude each other: both is an error beside them.
    const both = await page(
      "/measurements/truck?truck_measurements_only=true&truck_diameter_measurements_only=true",
      a.cookie,
    );
    expect(both.status).toBe(200);
    expect(both.data).toContain("Choose only one of the two");
    // No live map toggle without truck_detection.
    expect(res.data).not.toContain('data-testid="toggle-live-map"');
  });

  it("with truck_detection, the live map lists active routes as a table (the map itself needs JavaScript)", async () => {
    const a = await setup("viewer", ["truck_detection"]);
    const route = await createTruckRoute(a.org.id, a.m.id, { points: [[58.123456, 26.654321]] });
    const res = await page("/measurements/truck?live=1", a.cookie);
    expect(res.status).toBe(200);
    expect(res.data).toContain('data-testid="toggle-live-map"');
    expect(res.data).toContain(`data-testid="active-route-${route.id}"`);
    // Truck coordinates to 5 decimals.
    expect(res.data).toContain("58.12346");
    expect(res.data).toContain("The live map needs JavaScript");
  });

  it("shows the empty state for an organisation without storages", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const res = await page("/measurements/truck", await webCookie(user.id));
    expect(res.status).toBe(200);
    expect(res.data).toContain('data-testid="trucks-empty"');
  });
});

describe("truck measurement detail without JavaScript", () => {
  it("shows the loads and volumes at both addresses; the loads form recomputes them on the server", async () => {
    const a = await setup("measurer");
    const route = await createTruckRoute(a.org.id, a.m.id, {
      points: [
        [58.1, 26.1],
        [58.2, 26.2],
      ],
      finished: true,
    });
    for (const path of [`/measurements/truck/${a.m.id}`, `/truck_measurement/${a.m.id}`]) {
      const res = await page(path, a.cookie);
      expect(res.status, path).toBe(200);
      expect(res.data).toContain("TRK-101");
      expect(res.data).toMatch(/22[.,]32/);
      expect(res.data).toContain(`data-testid="route-${route.id}"`);
    }
    const loads = await db()
      .selectFrom("truck_loads")
      .selectAll()
      .where("truck_measurement_id", "=", a.m.id)
      .orderBy("load_index")
      .execute();
    const ok = await api(`/measurements/truck/${a.m.id}`, {
      cookie: a.cookie,
      form: {
        intent: "save-loads",
        "loads[0].id": String(loads[0].id),
        "loads[0].height": "3",
        "loads[0].load_width": "2.4",
        "loads[0].log_length": "3",
        "loads[0].coefficient": "0.68",
        "loads[0].load_bed_name": "Truck",
        "loads[1].id": String(loads[1].id),
        "loads[1].height": "2",
        "loads[1].load_width": "2.4",
        "loads[1].log_length": "3",
        "loads[1].coefficient": "0.7",
        "loads[1].remove": "on",
        "loads[2].height": "1,5",
        "loads[2].load_width": "2.5",
        "loads[2].log_length": "4",
        "loads[2].coefficient": "0.6",
        measurement_type_id: "2",
        weight: "21000",
        weight_density: "",
      },
    });
    expect(ok.status, String(ok.data)).toBe(302);
    expect(ok.headers.get("location")).toBe(`/measurements/truck/${a.m.id}`);
    // 3 x 2.4 x 3 x 0.68 = 14.688; 1.5 x 2.5 x 4 x 0.6 = 9.
    const stored = await row(a.m.id);
    expect(stored.volume).toBeCloseTo(23.688, 10);
    expect(stored).toMatchObject({ load_count: 2, measurement_type_id: 2, weight: 21000, weight_density: null });

    const before = await snapshotTables();
    const bad = await api(`/measurements/truck/${a.m.id}`, {
      cookie: a.cookie,
      form: {
        intent: "save-loads",
        measurement_type_id: "2",
        "loads[0].height": "tall",
        "loads[0].load_width": "2.4",
        "loads[0].log_length": "3",
        "loads[0].coefficient": "1.7",
        "loads[0].load_bed_name": "Front bed",
        weight: "-4",
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.data).toContain("The coefficient must be between 0 and 1");
    // The errors beside their fields, the typed values kept.
    expect(bad.data).toMatch(
      /data-testid="error-loads\.0\.coefficient"[^>]*><li>The coefficient must be between 0 and 1/,
    );
    expect(bad.data).toMatch(/data-testid="error-loads\.0\.height"/);
    expect(bad.data).toContain('value="tall"');
    expect(bad.data).toContain('value="Front bed"');
    expect(bad.data).toContain('value="-4"');
    expect(await snapshotTables()).toEqual(before);

    // A new load without all four sides: the model's error lands beside the new row (row 2, after
    // the two stored loads), not at the payload's index (the removed load is not in the payload).
    const fresh = await db()
      .selectFrom("truck_loads")
      .selectAll()
      .where("truck_measurement_id", "=", a.m.id)
      .orderBy("load_index")
      .execute();
    const partial = await api(`/measurements/truck/${a.m.id}`, {
      cookie: a.cookie,
      form: {
        intent: "save-loads",
        measurement_type_id: "2",
        "loads[0].id": String(fresh[0].id),
        "loads[0].remove": "on",
        "loads[1].id": String(fresh[1].id),
        "loads[1].height": "1",
        "loads[1].load_width": "2",
        "loads[1].log_length": "3",
        "loads[1].coefficient": "0.5",
        "loads[2].height": "2,5",
      },
    });
    expect(partial.status).toBe(422);
    expect(partial.data).toMatch(/data-testid="error-loads\.2\.load_width"/);
    expect(partial.data).not.toMatch(/data-testid="error-loads\.1\.load_width"/);
    expect(partial.data).toContain('value="2.5"');
    expect(await snapshotTables()).toEqual(before);
    expect((await api(`/measurements/truck/${a.m.id}`, { cookie: a.cookie, form: { intent: "explode" } })).status).toBe(
      400,
    );
  });

  it("a viewer's post is refused; another organisation gets 404; nothing changes", async () => {
    const a = await setup("viewer");
    const form = { intent: "save-loads", load_count: "0", weight: "5" };
    const before = await snapshotTables();
    expect((await api(`/measurements/truck/${a.m.id}`, { cookie: a.cookie, form })).status).toBe(403);
    expect(await snapshotTables()).toEqual(before);
    const outsider = await createUser((await createOrganization()).id, { role: "admin" });
    const cookie = await webCookie(outsider.id);
    const snap = await snapshotTables();
    expect((await page(`/measurements/truck/${a.m.id}`, cookie)).status).toBe(404);
    expect((await page(`/truck_measurement/${a.m.id}`, cookie)).status).toBe(404);
    expect((await api(`/measurements/truck/${a.m.id}`, { cookie, form })).status).toBe(404);
    expect(await snapshotTables()).toEqual(snap);
    expect((await row(a.m.id)).weight).toBeNull();
  });
});

describe("deleted truck measurements", () => {
  it("are listed on the deleted page by storage, beside timber and lumber, and only the organisation's own", async () => {
    const a = await setup("admin");
    const kept = await createTruckMeasurement(a.org.id, a.storage.id, { plate: "KEEP-1" });
    const gone = await createTruckMeasurement(a.org.id, a.storage.id, {
      plate: "GONE-2",
      loads: [{ height: 1.5, load_width: 2.5, log_length: 4, coefficient: 0.6 }],
    });
    const token = await apiToken(a.user.id);
    const before = await page("/measurements/timber/deleted", a.cookie);
    expect(before.data).toContain('data-testid="deleted-trucks-empty"');
    const del = await api("/api/web_app/truck_measurements", {
      token,
      method: "DELETE",
      json: { measurement_ids: [a.m.id, gone.id] },
    });
    expect(del.status, JSON.stringify(del.data)).toBe(200);
    const res = await page("/measurements/timber/deleted", a.cookie);
    expect(res.status).toBe(200);
    expect(res.data).toContain(`data-testid="deleted-truck-${a.m.id}"`);
    expect(res.data).toContain(`data-testid="deleted-truck-${gone.id}"`);
    expect(res.data).not.toContain(`data-testid="deleted-truck-${kept.id}"`);
    expect(res.data).toContain("GONE-2");
    // 22.32 + 9 = 31.32 m³ over 3 loads.
    expect(res.data).toMatch(/data-testid="deleted-trucks-total"[^>]*>31[.,]320</);
    const outsider = await createUser((await createOrganization()).id, { role: "admin" });
    const theirs = await page("/measurements/timber/deleted", await webCookie(outsider.id));
    expect(theirs.data).toContain('data-testid="deleted-trucks-empty"');
    expect(theirs.data).not.toContain("GONE-2");
  });
});

describe("demo seed", () => {
  it("gives the demo organisation trucks with loads, routes and checkpoints once, and the live map", async () => {
    const org = await createOrganization();
    await createStorage(org.id, { name: "Yard" });
    expect(await seedTrucks(db(), org.id)).toBe(12);
    expect(await seedTrucks(db(), org.id)).toBe(0);
    const active = await db()
      .selectFrom("truck_routes")
      .select(["id", "last_latitude"])
      .where("organization_id", "=", org.id)
      .where("finished_at", "is", null)
      .execute();
    expect(active).toHaveLength(3);
    expect(active.every((r) => r.last_latitude !== null)).toBe(true);
    const o = await db()
      .selectFrom("organizations")
      .select("features")
      .where("id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(o.features)).toContain("truck_detection");
  });
});
