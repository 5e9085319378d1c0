import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { seedDemo, seedLumber } from "#db/seed/demo";
import {
  apiToken,
  createLumberMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api, baseUrl } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

async function org(role: "admin" | "measurer" | "viewer" = "admin") {
  const o = await createOrganization();
  const user = await createUser(o.id, { role });
  const storage = await createStorage(o.id, { name: "Sawmill yard" });
  return { org: o, user, storage, token: await apiToken(user.id) };
}

// The factory's default product: 4200 x 150 x 50 mm, so one plank is 4.2 m x 0.15 m x 0.05 m.
const PLANK_M3 = 4.2 * 0.15 * 0.05;

const row = (id: number) =>
  db().selectFrom("lumber_measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const plankRows = (id: number) =>
  db().selectFrom("planks").selectAll().where("lumber_measurement_id", "=", id).orderBy("id").execute();
const patch = (token: string, id: number, json: unknown) =>
  api(`/api/web_app/lumber_measurements/${id}`, { token, method: "PATCH", json });

describe("GET /lumber_measurements/{id}", () => {
  it("answers the measurement with its product's plank length, planks on request, and its photo", async () => {
    const a = await org();
    const m = await createLumberMeasurement(a.org.id, a.storage.id, { comment: "Morning delivery" });
    expect(m.plankCount).toBeGreaterThan(20);
    expect(m.volume).toBeCloseTo(m.plankCount * PLANK_M3, 12);

    const res = await api(`/api/web_app/lumber_measurements/${m.id}?extra_fields=planks,comment`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.data.data).toMatchObject({
      id: m.id,
      storage_id: a.storage.id,
      lumber_product_id: m.productId,
      plank_length: 4200,
      plank_count: m.plankCount,
      measurement_type_id: 0,
      photo: `/files/lumber_measurements/${m.id}/photo`,
      photo_width: m.photo.width,
      photo_height: m.photo.height,
      volume_status: "computed",
      comment: "Morning delivery",
    });
    expect(res.data.data.volume).toBeCloseTo(m.plankCount * PLANK_M3, 12);
    expect(res.data.data.planks).toHaveLength(m.plankCount);
    expect(res.data.data.planks[0]).toEqual({ ...m.planks[0], isDeleted: false, modified_at: null, updated: false });
    // The spec's "logs" extra of this call means the planks; fields= picks a subset.
    const subset = await api(`/api/web_app/lumber_measurements/${m.id}?fields=plank_count,volume&extra_fields=logs`, {
      token: a.token,
    });
    expect(Object.keys(subset.data.data).sort()).toEqual(["id", "plank_count", "planks", "volume"]);
    expect(
      (await api(`/api/web_app/lumber_measurements/${m.id}`, { token: a.token })).data.data.planks,
    ).toBeUndefined();

    const photo = await fetch(`${baseUrl()}/files/lumber_measurements/${m.id}/photo`, {
      headers: { Authorization: `Bearer ${a.token}` },
    });
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/jpeg");
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    // Tenancy: another organisation's id is 404 for every call, even with a bad body.
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/lumber_measurements/${m.id}`, { token }));
    await expectOutsiderGets404(({ token }) => patch(token, m.id, { planks: [{ x: -5 }] }));
    await expectOutsiderGets404(({ token }) => patch(token, m.id, { planks_removed: [m.planks[0].id] }));
    await expectOutsiderGets404(({ token }) => api(`/files/lumber_measurements/${m.id}/photo`, { token }));
    await expectOutsiderGets404(({ cookie }) => api(`/measurements/lumber/${m.id}`, { cookie }));
    expect((await api(`/api/web_app/lumber_measurements/2000000000`, { token: a.token })).status).toBe(404);
  });

  it("says so when the measurement has no product: volume 0, volume_status no_product", async () => {
    const a = await org();
    const m = await createLumberMeasurement(a.org.id, a.storage.id, { productId: null, photo: false, maxPlanks: 4 });
    const res = await api(`/api/web_app/lumber_measurements/${m.id}`, { token: a.token });
    expect(res.data.data).toMatchObject({
      lumber_product_id: null,
      plank_length: null,
      plank_count: 4,
      volume: 0,
      volume_status: "no_product",
      photo: null,
    });
    const after = await patch(a.token, m.id, { planks_removed: [m.planks[0].id] });
    expect(after.status).toBe(200);
    expect(after.data.data).toMatchObject({ plank_count: 3, volume: 0, volume_status: "no_product" });
  });
});

describe("PATCH /lumber_measurements/{id}", () => {
  it("adds, moves and removes planks; the server recounts and recomputes the volume", async () => {
    const a = await org("measurer");
    const m = await createLumberMeasurement(a.org.id, a.storage.id);
    const [p0, p1, p2] = m.planks;
    const untouched = m.planks[3];
    const res = await patch(a.token, m.id, {
      planks: [
        { id: p0.id, x: p0.x + 4, width: p0.width - 2 },
        { x: 10, y: 12, width: 75, height: 25 },
        { x: 100, y: 12, width: 75, height: 25 },
        { x: 190, y: 12, width: 75, height: 25 },
      ],
      planks_removed: [p1.id, p2.id],
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    // Hand computation: n planks - 2 removed + 3 added, each 4.2 m x 0.15 m x 0.05 m = 0.0315 m³.
    const expectedCount = m.plankCount - 2 + 3;
    expect(res.data.data.plank_count).toBe(expectedCount);
    expect(res.data.data.volume).toBeCloseTo(expectedCount * 0.0315, 12);
    expect(await row(m.id)).toMatchObject({ plank_count: expectedCount });
    expect((await row(m.id)).volume).toBeCloseTo(expectedCount * 0.0315, 12);

    const after = await plankRows(m.id);
    const byId = new Map(after.map((p) => [p.id, p]));
    expect(byId.get(p0.id)).toMatchObject({
      x: p0.x + 4,
      y: p0.y,
      width: p0.width - 2,
      height: p0.height,
      is_deleted: false,
    });
    expect(byId.get(p0.id)!.modified_at).not.toBeNull();
    expect(byId.get(p1.id)).toMatchObject({ is_deleted: true, x: p1.x });
    expect(byId.get(p1.id)!.modified_at).not.toBeNull();
    expect(byId.get(untouched.id)).toMatchObject({ x: untouched.x, modified_at: null, is_deleted: false });
    const added = after.filter((p) => !m.planks.some((o) => o.id === p.id));
    expect(added.map((p) => [p.x, p.y, p.width, p.height])).toEqual([
      [10, 12, 75, 25],
      [100, 12, 75, 25],
      [190, 12, 75, 25],
    ]);
    expect(added.every((p) => p.modified_at !== null && p.organization_id === a.org.id)).toBe(true);
    // The answer carries every plank, removed ones flagged.
    expect(res.data.data.planks).toHaveLength(m.plankCount + 3);
    expect(res.data.data.planks.find((p: { id: number }) => p.id === p1.id)).toMatchObject({
      isDeleted: true,
      updated: true,
    });

    // Removing an already removed plank again changes nothing but is accepted; a plank both
    // changed and removed ends removed.
    const again = await patch(a.token, m.id, {
      planks: [{ id: untouched.id, y: untouched.y - 1 }],
      planks_removed: [p1.id, untouched.id],
    });
    expect(again.status).toBe(200);
    expect(again.data.data.plank_count).toBe(expectedCount - 1);
    expect(again.data.data.volume).toBeCloseTo((expectedCount - 1) * 0.0315, 12);
    expect((await plankRows(m.id)).find((p) => p.id === untouched.id)).toMatchObject({
      is_deleted: true,
      y: untouched.y,
    });
  });

  it("answers 422 with field errors for bad input, unknown and foreign plank ids, and changes nothing", async () => {
    const a = await org();
    const m = await createLumberMeasurement(a.org.id, a.storage.id);
    const other = await org();
    const foreign = await createLumberMeasurement(other.org.id, other.storage.id, { photo: false, maxPlanks: 2 });
    await patch(a.token, m.id, { planks_removed: [m.planks[5].id] });
    const before = await snapshotTables();

    const bad = await patch(a.token, m.id, {
      planks: [
        { x: -1, y: 0, width: 0, height: 5 },
        { x: 1, y: 2 },
        { id: 0, x: Number.MAX_VALUE },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.data.errors).toMatchObject({
      "planks.0.x": ["timber:errors.nonNegative"],
      "planks.0.width": ["timber:errors.positive"],
      "planks.1": ["timber:errors.plankNeedsXYWH"],
      "planks.2.id": ["timber:errors.id"],
      "planks.2.x": ["timber:errors.plankOutsidePhoto"],
    });
    const strict = await patch(a.token, m.id, {
      planks: [{ x: 1, y: 1, width: 2, height: 2, isDeleted: false }],
      logs: [],
    });
    expect(strict.status).toBe(422);
    expect(strict.data.errors).toEqual({
      _: ["timber:errors.unknownField"],
      "planks.0": ["timber:errors.unknownField"],
    });
    expect((await patch(a.token, m.id, {})).data.errors).toEqual({ _: ["timber:errors.emptyPatch"] });
    expect((await patch(a.token, m.id, { planks: "all" })).status).toBe(422);
    const tooMany = await patch(a.token, m.id, { planks_removed: Array.from({ length: 5001 }, (_, i) => i + 1) });
    expect(tooMany.data.errors).toEqual({ planks_removed: ["timber:errors.tooManyPlanks"] });

    // Checked against the database: every error at once, none written.
    const unknown = await patch(a.token, m.id, {
      planks: [
        { id: 2_000_000_000, x: 1 },
        { id: foreign.planks[0].id, x: 1 },
        { id: m.planks[5].id, x: 1 },
        { x: 1, y: 1, width: 10, height: 10 },
        { x: m.photo.width - 10, y: 0, width: 75, height: 25 },
        { id: m.planks[0].id, y: m.photo.height },
      ],
      planks_removed: [m.planks[1].id, foreign.planks[1].id],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.data.errors).toEqual({
      "planks.0.id": ["timber:errors.unknown"],
      "planks.1.id": ["timber:errors.unknown"],
      // A removed plank cannot be moved.
      "planks.2.id": ["timber:errors.unknown"],
      "planks.4": ["timber:errors.plankOutsidePhoto"],
      "planks.5": ["timber:errors.plankOutsidePhoto"],
      "planks_removed.1": ["timber:errors.unknown"],
    });
    expect(await snapshotTables()).toEqual(before);
  });

  it("viewers get 403, a measurer of the storage may edit, a measurement in an inventory is locked (409)", async () => {
    const a = await org();
    const m = await createLumberMeasurement(a.org.id, a.storage.id, { photo: false });
    const viewer = await createUser(a.org.id, { role: "viewer" });
    const viewerToken = await apiToken(viewer.id);
    const snapshot = await snapshotTables();
    expect((await patch(viewerToken, m.id, { planks_removed: [m.planks[0].id] })).status).toBe(403);
    expect(
      (
        await api("/api/web_app/lumber_measurements", {
          token: viewerToken,
          method: "DELETE",
          json: { measurement_ids: [m.id] },
        })
      ).status,
    ).toBe(403);
    expect(await snapshotTables()).toEqual(snapshot);
    // Viewers still read it.
    expect((await api(`/api/web_app/lumber_measurements/${m.id}`, { token: viewerToken })).status).toBe(200);

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
    const localEdit = await patch(await apiToken(local.id), m.id, { planks_removed: [m.planks[0].id] });
    expect(localEdit.status).toBe(200);
    expect(localEdit.data.data.plank_count).toBe(m.plankCount - 1);

    await db().updateTable("lumber_measurements").set({ inventory_id: 7 }).where("id", "=", m.id).execute();
    const lockedBefore = await snapshotTables();
    const locked = await patch(a.token, m.id, { planks_removed: [m.planks[1].id] });
    expect(locked.status).toBe(409);
    expect(locked.data.error).toBe("locked");
    const lockedDelete = await api("/api/web_app/lumber_measurements", {
      token: a.token,
      method: "DELETE",
      json: { measurement_ids: [m.id] },
    });
    expect(lockedDelete.status).toBe(422);
    expect(lockedDelete.data.errors).toEqual({ "measurement_ids.0": ["timber:errors.inInventory"] });
    expect(await snapshotTables()).toEqual(lockedBefore);
  });
});

describe("POST /lumber_measurements/search and DELETE /lumber_measurements", () => {
  it("pages a storage's measurements 5 at a time, newest first, only the caller's; filters by ids", async () => {
    const a = await org();
    const second = await createStorage(a.org.id, { name: "Second yard" });
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const m = await createLumberMeasurement(a.org.id, a.storage.id, {
        photo: false,
        maxPlanks: i + 1,
        takenAt: new Date(Date.now() - i * 3600_000),
      });
      ids.push(m.id);
    }
    const elsewhere = await createLumberMeasurement(a.org.id, second.id, { photo: false, maxPlanks: 2 });
    const other = await org();
    await createLumberMeasurement(other.org.id, other.storage.id, { photo: false, maxPlanks: 2 });

    const page1 = await api("/api/web_app/lumber_measurements/search", {
      token: a.token,
      json: { storage_id: a.storage.id, page: 1 },
    });
    expect(page1.status).toBe(200);
    expect(page1.data.total_pages).toBe(2);
    expect(page1.data.measurements.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 5));
    expect(page1.data.measurements[0]).toMatchObject({
      id: ids[0],
      storage_id: a.storage.id,
      plank_length: 4200,
      plank_count: 1,
      measurement_type_id: 0,
      photo: null,
    });
    expect(page1.data.measurements[0].volume).toBeCloseTo(PLANK_M3, 12);
    const page2 = await api("/api/web_app/lumber_measurements/search", {
      token: a.token,
      json: { storage_id: a.storage.id, page: 2 },
    });
    expect(page2.data.measurements.map((m: { id: number }) => m.id)).toEqual(ids.slice(5));

    // Without a storage: every storage of the caller's organisation, never another's.
    const all = await api("/api/web_app/lumber_measurements/search", { token: a.token, json: {} });
    expect(all.data.total_count).toBe(8);
    const some = await api("/api/web_app/lumber_measurements/search", {
      token: a.token,
      json: { measurement_ids: [ids[3], elsewhere.id] },
    });
    expect(some.data.measurements.map((m: { id: number }) => m.id).sort()).toEqual([ids[3], elsewhere.id].sort());
    const text = await api("/api/web_app/lumber_measurements/search", {
      token: a.token,
      json: { measurement_ids: `${ids[1]}, ${ids[2]}` },
    });
    expect(text.data.measurements.map((m: { id: number }) => m.id)).toEqual([ids[1], ids[2]]);
    const bad = await api("/api/web_app/lumber_measurements/search", {
      token: a.token,
      json: { measurement_ids: "1;2", page: 0 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["measurement_ids", "page"]);
    expect(
      (await api("/api/web_app/lumber_measurements/search", { token: other.token, json: { storage_id: a.storage.id } }))
        .status,
    ).toBe(404);
    expect(
      (await api("/api/web_app/lumber_measurements/search", { token: other.token, json: { measurement_ids: ids } }))
        .data.measurements,
    ).toEqual([]);
    expect((await api("/api/web_app/lumber_measurements/search", { token: a.token })).status).toBe(405);
  });

  it("soft-deletes; deleted measurements leave the search and answer 404; tenancy 404 changes nothing", async () => {
    const a = await org();
    const m1 = await createLumberMeasurement(a.org.id, a.storage.id, { photo: false, maxPlanks: 2 });
    const m2 = await createLumberMeasurement(a.org.id, a.storage.id, { photo: false, maxPlanks: 3 });
    const keep = await createLumberMeasurement(a.org.id, a.storage.id, { photo: false, maxPlanks: 4 });
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/lumber_measurements", { token, method: "DELETE", json: { measurement_ids: [m1.id] } }),
    );
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/lumber_measurements/search", { token, json: { storage_id: a.storage.id } }),
    );
    expect(
      (
        await api("/api/web_app/lumber_measurements", {
          token: a.token,
          method: "DELETE",
          json: { measurement_ids: [] },
        })
      ).status,
    ).toBe(422);

    const deleted = await api("/api/web_app/lumber_measurements/", {
      token: a.token,
      method: "DELETE",
      json: { measurement_ids: [m1.id, m2.id] },
    });
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    expect(deleted.data).toEqual({ deleted: 2 });
    expect((await row(m1.id)).deleted_at).not.toBeNull();
    expect((await row(keep.id)).deleted_at).toBeNull();
    expect((await api(`/api/web_app/lumber_measurements/${m1.id}`, { token: a.token })).status).toBe(404);
    expect((await patch(a.token, m2.id, { planks_removed: [m2.planks[0].id] })).status).toBe(404);
    const list = await api("/api/web_app/lumber_measurements/search", {
      token: a.token,
      json: { storage_id: a.storage.id },
    });
    expect(list.data.measurements.map((m: { id: number }) => m.id)).toEqual([keep.id]);
    // Deleting again: the ids are no longer live measurements.
    expect(
      (
        await api("/api/web_app/lumber_measurements", {
          token: a.token,
          method: "DELETE",
          json: { measurement_ids: [m1.id] },
        })
      ).status,
    ).toBe(404);
  });
});

describe("the lumber measurement detail screen", () => {
  it("renders the photo with one rectangle per kept plank, the numbers, the editor link and the noscript note", async () => {
    const a = await org();
    const m = await createLumberMeasurement(a.org.id, a.storage.id, { comment: "Checked at the gate" });
    await patch(a.token, m.id, {
      planks_removed: [m.planks[0].id],
      planks: [{ id: m.planks[1].id, x: m.planks[1].x + 1 }],
    });
    const cookie = await webCookie(a.user.id);
    const page = await api(`/measurements/lumber/${m.id}`, { cookie });
    expect(page.status).toBe(200);
    const html = page.data as string;
    expect(html.match(/data-testid="overlay-plank"/g)).toHaveLength(m.plankCount - 1);
    expect(html.match(/class="overlay-plank modified"/g)).toHaveLength(1);
    expect(html).toContain(`viewBox="0 0 ${m.photo.width} ${m.photo.height}"`);
    // The original until the renditions job has made the optimized one (the same rule as timber).
    expect(html).toContain(`src="/files/lumber_measurements/${m.id}/original"`);
    expect(html).toMatch(new RegExp(`data-testid="detail-planks">${m.plankCount - 1}<`));
    expect(html).toContain(`${m.plankCount - 1} planks`);
    expect(html).toContain(`href="/measurements/lumber/${m.id}/edit"`);
    expect(html).toContain('data-testid="editor-needs-js"');
    expect(html).toContain("4,200 mm");
    expect(html).toContain("Checked at the gate");

    // No photo: the placeholder; no product: the note and a dash for the volume.
    const bare = await createLumberMeasurement(a.org.id, a.storage.id, { photo: false, productId: null, maxPlanks: 2 });
    const barePage = (await api(`/measurements/lumber/${bare.id}`, { cookie })).data as string;
    expect(barePage).toContain('data-testid="photo-placeholder"');
    expect(barePage).toContain('data-testid="no-product"');
    expect(barePage).toMatch(/data-testid="detail-volume">-</);
    expect((await api(`/measurements/lumber/2000000000`, { cookie })).status).toBe(404);
  });
});

describe("the demo seed", () => {
  it("adds two products and three lumber measurements whose planks lie on the drawn plank ends", async () => {
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 1 });
    const orgId = seeded.organizationId;
    const products = await db()
      .selectFrom("lumber_products")
      .selectAll()
      .where("organization_id", "=", orgId)
      .execute();
    expect(products).toHaveLength(2);
    const measurements = await db()
      .selectFrom("lumber_measurements")
      .selectAll()
      .where("organization_id", "=", orgId)
      .orderBy("id")
      .execute();
    expect(measurements).toHaveLength(3);
    for (const m of measurements) {
      const planks = await plankRows(m.id);
      const product = products.find((p) => p.id === m.lumber_product_id)!;
      expect(m.plank_count).toBe(planks.length);
      expect(m.volume).toBeCloseTo(
        (planks.length * product.plank_length * product.plank_width * product.plank_height) / 1e9,
        12,
      );
      // The photo: wood-coloured (warm, light) at every plank's centre, the grey-blue wall above the package.
      const { data, info } = await sharp(await fileStorage().get(m.photo_key!))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([m.photo_width, m.photo_height]);
      const pixel = (x: number, y: number) => {
        const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
        return { r: data[i], g: data[i + 1], b: data[i + 2] };
      };
      for (const p of planks) {
        const c = pixel(p.x + p.width / 2, p.y + p.height / 2);
        expect(c.r - c.b, `plank ${p.id} centre ${JSON.stringify(c)}`).toBeGreaterThan(25);
      }
      const wall = pixel(20, 20);
      expect(wall.b - wall.r).toBeGreaterThan(0);
    }
    expect((await plankRows(measurements[2].id)).filter((p) => p.modified_at !== null)).toHaveLength(1);

    // Seeding again adds nothing; an organisation without lumber measurements gets them once.
    expect(await seedLumber(db(), fileStorage(), orgId)).toBe(0);
    const other = await createOrganization();
    expect(await seedLumber(db(), fileStorage(), other.id)).toBe(0);
    await createStorage(other.id);
    expect(await seedLumber(db(), fileStorage(), other.id)).toBe(3);
  });
});
