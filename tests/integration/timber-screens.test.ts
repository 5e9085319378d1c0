import { describe, expect, it } from "vitest";
import {
  createCustomField,
  createDevice,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
  givePlan,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api, baseUrl } from "#tests/helpers/http";
import { deviceUpload, drawnStack, stackPayload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { db } from "~/utils/db.server";

// The timber screens as a browser without JavaScript uses them: plain GETs and form posts.

async function setup(role: "admin" | "measurer" | "viewer" = "admin") {
  const org = await createOrganization({ name: "Screens Org" });
  await givePlan(org.id);
  const user = await createUser(org.id, { role });
  const storage = await createStorage(org.id, { name: "Lakeside" });
  const device = await createDevice(org.id);
  const { stack, jpeg } = await drawnStack(12);
  const up = await deviceUpload(device.token, {
    measurement: stackPayload(stack, { client_id: "s1", storage_id: storage.id }),
    photo: jpeg,
  });
  expect(up.status).toBe(201);
  // The worker's renditions land asynchronously: let them, so "nothing changed" checks are fair.
  await waitFor(async () => (await row(up.data.measurement.id)).photo_status === 1, { what: "the renditions" });
  return {
    org,
    user,
    storage,
    cookie: await webCookie(user.id),
    id: up.data.measurement.id as number,
    volume: up.data.measurement.volume as number,
  };
}

const row = (id: number) => db().selectFrom("measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const page = (path: string, cookie: string) => api(path, { cookie, headers: { Accept: "text/html" } });

describe("timber screens without JavaScript", () => {
  it("the dashboard lists the organisation's storages only, and expands a row server-side", async () => {
    const a = await setup();
    const other = await createOrganization({ name: "Other" });
    await createStorage(other.id, { name: "Secret yard" });
    const res = await page(`/measurements/timber?open=${a.storage.id}`, a.cookie);
    expect(res.status).toBe(200);
    expect(res.data).toContain("Lakeside");
    expect(res.data).not.toContain("Secret yard");
    expect(res.data).toContain(`data-testid="measurement-${a.id}"`);
  });

  it("the details form recomputes the volume on the server; bad input answers 422; unknown intent 400", async () => {
    const a = await setup("measurer");
    const ok = await api(`/measurement/${a.id}`, {
      cookie: a.cookie,
      form: {
        intent: "details",
        measurement_type_id: "1",
        log_length: "6",
        volume_formula: "cylinder",
        wood_type_id: "",
        wood_quality_id: "",
        wood_characteristic_id: "",
      },
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`/measurement/${a.id}`);
    expect((await row(a.id)).volume).toBeCloseTo(a.volume * 2, 9);
    const before = await snapshotTables();
    const bad = await api(`/measurements/timber/${a.id}`, {
      cookie: a.cookie,
      form: { intent: "location", storage_id: String(a.storage.id), latitude: "91", longitude: "abc" },
    });
    expect(bad.status).toBe(422);
    expect(bad.data).toContain("Latitude must be between −90 and 90");
    expect(bad.data).toContain("Enter a number");
    expect((await api(`/measurement/${a.id}`, { cookie: a.cookie, form: { intent: "explode" } })).status).toBe(400);
    expect(await snapshotTables()).toEqual(before);
  });

  it("a viewer's form post is refused and changes nothing", async () => {
    const a = await setup("viewer");
    const before = await snapshotTables();
    const res = await api(`/measurement/${a.id}`, {
      cookie: a.cookie,
      form: { intent: "poor_detection", poor_detection: "true" },
    });
    expect(res.status).toBe(403);
    expect(await snapshotTables()).toEqual(before);
  });

  it("tenancy: another organisation's measurement and storage screens answer 404 and change nothing", async () => {
    const a = await setup();
    // A signed-in member of another organisation (admin there): every screen answers 404.
    const other = await createOrganization({ name: "Outsider Org" });
    const outsider = await createUser(other.id, { role: "admin" });
    const cookie = await webCookie(outsider.id);
    const before = await snapshotTables();
    for (const path of [
      `/measurement/${a.id}`,
      `/measurements/timber/${a.id}`,
      `/storages/${a.storage.id}`,
      `/measurements/timber/manual?storage_id=${a.storage.id}`,
    ]) {
      expect((await page(path, cookie)).status, path).toBe(404);
    }
    expect(
      (await api(`/measurement/${a.id}`, { cookie, form: { intent: "poor_detection", poor_detection: "true" } }))
        .status,
    ).toBe(404);
    expect((await api(`/storages/${a.storage.id}`, { cookie, form: { intent: "delete" } })).status).toBe(404);
    expect(
      (await api(`/measurements/timber?index`, { cookie, form: { intent: "delete", measurement_ids: String(a.id) } }))
        .status,
    ).toBe(302);
    expect(await snapshotTables()).toEqual(before);
  });

  it("bulk move and delete from the dashboard form", async () => {
    const a = await setup();
    const target = await createStorage(a.org.id, { name: "Target" });
    const moved = await api(`/measurements/timber?index&open=${a.storage.id}`, {
      cookie: a.cookie,
      form: { intent: "move", measurement_ids: String(a.id), target_storage_id: String(target.id) },
    });
    expect(moved.status).toBe(302);
    expect((await row(a.id)).storage_id).toBe(target.id);
    const deleted = await api(`/measurements/timber?index`, {
      cookie: a.cookie,
      form: { intent: "delete", measurement_ids: String(a.id) },
    });
    expect(deleted.status).toBe(302);
    expect((await row(a.id)).deleted_at).not.toBeNull();
    const list = await page("/measurements/timber/deleted", a.cookie);
    expect(list.data).toContain(`data-testid="deleted-${a.id}"`);
  });

  it("storages: create with validation, edit, the default storage is never deleted, others are", async () => {
    const a = await setup();
    const bad = await api("/storages/new", {
      cookie: a.cookie,
      form: { intent: "save", name: "", latitude: "91", longitude: "10", storage_state_id: "7" },
    });
    expect(bad.status).toBe(422);
    for (const message of ["Required", "Latitude must be between −90 and 90", "Choose a state"])
      expect(bad.data).toContain(message);
    const made = await api("/storages/new", {
      cookie: a.cookie,
      form: { intent: "save", name: "Quarry road", latitude: "58.1234567", longitude: "-24.5", storage_state_id: "5" },
    });
    expect(made.status).toBe(302);
    const id = Number(made.headers.get("location")!.split("/").pop());
    const s = await db().selectFrom("storages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(s).toMatchObject({
      organization_id: a.org.id,
      name: "Quarry road",
      latitude: 58.123457,
      longitude: -24.5,
      storage_state_id: 5,
    });
    // A new storage is shared at once: its public link is ready to copy from the dashboard.
    const link = await db()
      .selectFrom("public_links")
      .selectAll()
      .where("kind", "=", "storage")
      .where("record_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(link).toMatchObject({ organization_id: a.org.id, token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    await db().updateTable("organizations").set({ default_storage_id: id }).where("id", "=", a.org.id).execute();
    const refused = await api(`/storages/${id}`, { cookie: a.cookie, form: { intent: "delete" } });
    expect(refused.status).toBe(302);
    expect(
      (await db().selectFrom("storages").select("deleted_at").where("id", "=", id).executeTakeFirstOrThrow())
        .deleted_at,
    ).toBeNull();
    const gone = await api(`/storages/${a.storage.id}`, { cookie: a.cookie, form: { intent: "delete" } });
    expect(gone.status).toBe(302);
    expect(
      (await db().selectFrom("storages").select("deleted_at").where("id", "=", a.storage.id).executeTakeFirstOrThrow())
        .deleted_at,
    ).not.toBeNull();
    expect((await row(a.id)).deleted_at).not.toBeNull();
    const measurer = await createUser(a.org.id, { role: "measurer" });
    expect((await page(`/storages/${id}`, await webCookie(measurer.id))).status).toBe(403);
  });

  it("manual measurement form: created, or refused before the last confirmed inventory", async () => {
    const a = await setup();
    await db()
      .updateTable("storages")
      .set({ last_inventory_confirmed_at: new Date("2026-06-01T00:00:00Z") })
      .where("id", "=", a.storage.id)
      .execute();
    const before = await snapshotTables();
    const early = await api(`/measurements/timber/manual?storage_id=${a.storage.id}`, {
      cookie: a.cookie,
      form: { taken_at: "2026-05-01T10:00", measurement_type_id: "1", volume: "3,5" },
    });
    expect(early.status).toBe(422);
    expect(early.data).toContain("Earlier than the storage&#x27;s last confirmed inventory");
    expect(await snapshotTables()).toEqual(before);
    const ok = await api(`/measurements/timber/manual?storage_id=${a.storage.id}`, {
      cookie: a.cookie,
      form: { taken_at: "2026-07-01T10:00", measurement_type_id: "1", volume: "3,5", comment: "truck 4" },
    });
    expect(ok.status).toBe(302);
    const m = await db().selectFrom("measurements").selectAll().where("type", "=", "manual").executeTakeFirstOrThrow();
    // 10:00 on the Tallinn wall clock (the user's default zone) in summer is 07:00 UTC.
    expect(m).toMatchObject({ volume: 3.5, comment: "truck 4", storage_id: a.storage.id });
    expect(m.taken_at.toISOString()).toBe("2026-07-01T07:00:00.000Z");
  });

  it("photo upload from the browser creates a measurement and opens it; a non-image is refused", async () => {
    const a = await setup();
    const { jpeg } = await drawnStack(13);
    const form = new FormData();
    form.set("storage_id", String(a.storage.id));
    form.set("photo", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "pile.jpg");
    const res = await fetch(`${baseUrl()}/measurements/timber/upload`, {
      method: "POST",
      headers: { Cookie: a.cookie },
      body: form,
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    const id = Number(res.headers.get("location")!.split("/").pop());
    expect(await row(id)).toMatchObject({
      organization_id: a.org.id,
      storage_id: a.storage.id,
      photo_file_name: "pile.jpg",
      photo_width: 1000,
    });
    const before = await snapshotTables();
    const bad = new FormData();
    bad.set("storage_id", String(a.storage.id));
    bad.set("photo", new Blob(["hello"], { type: "image/jpeg" }), "x.jpg");
    const refused = await fetch(`${baseUrl()}/measurements/timber/upload`, {
      method: "POST",
      headers: { Cookie: a.cookie },
      body: bad,
      redirect: "manual",
    });
    expect(refused.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);
  });

  it("the metadata and custom field forms: a decimal comma, an emptied field clears, a refused value comes back", async () => {
    const a = await setup("measurer");
    await createCustomField(a.org.id, { key: "lot", name: "Lot" });
    await createCustomField(a.org.id, { key: "pieces", name: "Pieces", data_type: "integer" });
    const saved = await api(`/measurements/timber/${a.id}`, {
      cookie: a.cookie,
      form: { intent: "metadata", shipment_number: "S-9", weight: "3,5", weight_density: "", comment: "wet" },
    });
    expect(saved.status).toBe(302);
    expect(await row(a.id)).toMatchObject({ shipment_number: "S-9", weight: 3.5, comment: "wet" });
    const cleared = await api(`/measurements/timber/${a.id}`, {
      cookie: a.cookie,
      form: { intent: "metadata", shipment_number: "S-9", weight: "", weight_density: "", comment: "" },
    });
    expect(cleared.status).toBe(302);
    expect(await row(a.id)).toMatchObject({ shipment_number: "S-9", weight: null, comment: null });
    const before = await snapshotTables();
    const bad = await api(`/measurements/timber/${a.id}`, {
      cookie: a.cookie,
      headers: { Accept: "text/html" },
      form: { intent: "custom_fields", "cf.lot": "A7", "cf.pieces": "2.5" },
    });
    expect(bad.status).toBe(422);
    expect(bad.data).toContain('value="A7"');
    expect(bad.data).toContain('value="2.5"');
    expect(bad.data).toContain('data-testid="missing-required"');
    expect(await snapshotTables()).toEqual(before);
    const ok = await api(`/measurements/timber/${a.id}`, {
      cookie: a.cookie,
      form: { intent: "custom_fields", "cf.lot": "A7", "cf.pieces": "12" },
    });
    expect(ok.status).toBe(302);
    expect((await row(a.id)).custom_fields).toEqual({ lot: "A7", pieces: 12 });
  });
});
