import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  apiToken,
  createDevice,
  createLumberMeasurement,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createUser,
  givePlan,
  sharePublicly,
  webCookie,
} from "#tests/factories";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { deviceUpload, drawnStack, stackPayload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { compareFormulas } from "~/domain/formula-comparison";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";
import { formatsFor } from "~/utils/use-format";

// Issue 24: every change of a measurement of any kind writes exactly one history row in its own
// transaction, with the right volume before and after; a refused change writes none; restore
// and its refusals; the photo's SHA-256 kept at upload survives renditions and catches a
// tampered file; the formula table matches app/domain.

async function org(features: string[] = []) {
  const o = await createOrganization({ features });
  await givePlan(o.id);
  const user = await createUser(o.id, { role: "admin", name: "Mari Mets" });
  const storage = await createStorage(o.id, { name: "North yard" });
  return { org: o, user, storage, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

type World = Awaited<ReturnType<typeof org>>;

async function uploaded(w: World, clientId = "h-1", storageId = w.storage.id) {
  const device = await createDevice(w.org.id);
  const { stack, jpeg } = await drawnStack(4);
  const res = await deviceUpload(device.token, {
    measurement: stackPayload(stack, { client_id: clientId, storage_id: storageId }),
    photo: jpeg,
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  const id = res.data.measurement.id as number;
  await waitFor(async () => (await timberRow(id)).photo_status !== 0, { what: `photo of measurement ${id}` });
  return { id, jpeg, device, volume: res.data.measurement.volume as number };
}

const timberRow = (id: number) =>
  db().selectFrom("measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const historyRows = (kind: string, id: number) =>
  db()
    .selectFrom("measurement_history")
    .selectAll()
    .where("kind", "=", kind)
    .where("measurement_id", "=", id)
    .orderBy("id")
    .execute()
    .then((rows) =>
      rows.map((r) => ({ ...r, changes: (typeof r.changes === "string" ? JSON.parse(r.changes) : r.changes) as any })),
    );

/** Runs a change and returns the history rows it added (expects exactly `count`). */
async function added(kind: string, id: number, change: () => Promise<unknown>, count = 1) {
  const before = (await historyRows(kind, id)).length;
  await change();
  const rows = await historyRows(kind, id);
  expect(rows.length - before, JSON.stringify(rows.slice(before))).toBe(count);
  return rows.slice(before);
}

const patchTimber = (w: World, id: number, json: unknown) =>
  api(`/api/web_app/measurements/${id}`, { token: w.token, method: "PATCH", json });

describe("history of timber measurements", () => {
  it("writes one row per change with the field-level before/after and the volume before/after", async () => {
    const w = await org();
    const m = await uploaded(w);

    // The upload: by the device, the first volume.
    const [created] = await historyRows("timber", m.id);
    expect(created).toMatchObject({ action: "created", device_id: m.device.id, user_id: null, volume_before: null });
    expect(created.volume_after).toBeCloseTo(m.volume, 12);

    // Details: the length doubles, so does the volume.
    const [length] = await added("timber", m.id, async () => {
      const res = await patchTimber(w, m.id, { log_length: 6, comment: "re-measured" });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    });
    expect(length).toMatchObject({ action: "edited", user_id: w.user.id, device_id: null });
    expect(length.volume_before).toBeCloseTo(m.volume, 12);
    expect(length.volume_after).toBeCloseTo(m.volume * 2, 9);
    expect(length.changes.fields.log_length).toEqual({ before: 3, after: 6 });
    expect(length.changes.fields.comment).toEqual({ before: null, after: "re-measured" });
    expect(length.changes.logs.changed).toBeGreaterThan(0); // every log's volume was recomputed

    // Logs: one removed, one added, one moved.
    const logs = await db().selectFrom("logs").selectAll().where("measurement_id", "=", m.id).orderBy("id").execute();
    const [edit] = await added("timber", m.id, async () => {
      const res = await patchTimber(w, m.id, {
        logs_removed: [logs[0].id],
        logs: [
          { x: 20, y: 20, r: 15 },
          { id: logs[1].id, x: logs[1].x + 2 },
        ],
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    });
    const newLog = await db()
      .selectFrom("logs")
      .select("id")
      .where("measurement_id", "=", m.id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(edit.changes.logs).toMatchObject({
      added: 1,
      removed: 1,
      added_ids: [newLog.id],
      removed_ids: [logs[0].id],
    });
    expect(edit.changes.logs.changed_ids).toContain(logs[1].id);
    expect(edit.volume_before).toBeCloseTo(length.volume_after!, 12);
    expect(edit.volume_after).toBeCloseTo((await timberRow(m.id)).volume, 12);

    // References: a reference twice as long quadruples the volume.
    const ref = await db()
      .selectFrom("measurement_references")
      .select(["x1", "y1", "x2", "y2", "size"])
      .where("measurement_id", "=", m.id)
      .executeTakeFirstOrThrow();
    const [refs] = await added("timber", m.id, () =>
      patchTimber(w, m.id, { references: [{ ...ref, size: ref.size * 2 }] }),
    );
    expect(refs.changes.fields.references.after[0].size).toBeCloseTo(ref.size * 2, 12);
    expect(refs.volume_after).toBeCloseTo(refs.volume_before! * 4, 6);

    // Formula.
    const [formula] = await added("timber", m.id, () => patchTimber(w, m.id, { volume_formula: "doyle" }));
    expect(formula.changes.fields.volume_formula).toEqual({ before: "cylinder", after: "doyle" });
    expect(formula.volume_after).toBeCloseTo((await timberRow(m.id)).volume, 12);

    // A refused change writes nothing: an unknown wood type (422) and an unknown log id.
    await added(
      "timber",
      m.id,
      async () => {
        expect((await patchTimber(w, m.id, { log_length: 5, wood_type_id: 999999 })).status).toBe(422);
        expect((await patchTimber(w, m.id, { logs: [{ id: 999999999, x: 1 }] })).status).toBe(422);
      },
      0,
    );

    // The API answers newest first, with the volume change.
    const res = await api(`/api/web_app/measurements/${m.id}/history`, { token: w.token });
    expect(res.status).toBe(200);
    expect(res.data.data.map((e: { action: string }) => e.action)).toEqual([
      "edited",
      "edited",
      "edited",
      "edited",
      "created",
    ]);
    expect(res.data.data[0].volume_change).toBeCloseTo(formula.volume_after! - formula.volume_before!, 12);
    expect(res.data.data[4].device_id).toBe(m.device.id);
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/measurements/${m.id}/history`, { token }));
    // History has no other verb.
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      const r = await api(`/api/web_app/measurements/${m.id}/history`, { token: w.token, method, json: {} });
      expect(r.status, method).toBe(405);
    }
    expect(await historyRows("timber", m.id)).toHaveLength(5);
  });

  it("records moves, deletion, restore (and its refusals) and inventory locks", async () => {
    const w = await org(["inventories"]);
    const m = await uploaded(w, "h-2");
    const south = await createStorage(w.org.id, { name: "South yard" });

    const [moved] = await added("timber", m.id, async () => {
      const res = await api("/api/web_app/measurements/move_storage", {
        token: w.token,
        method: "PATCH",
        json: { move_storage: [{ measurement_id: m.id, storage_id: south.id }] },
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    });
    expect(moved).toMatchObject({ action: "moved" });
    expect(moved.changes.fields.storage_id).toEqual({ before: w.storage.id, after: south.id });
    expect(moved.volume_after).toBeCloseTo(moved.volume_before!, 12);

    const del = () =>
      api("/api/web_app/measurements", { token: w.token, method: "DELETE", json: { measurement_ids: [m.id] } });
    const [deleted] = await added("timber", m.id, async () => expect((await del()).status).toBe(200));
    expect(deleted.action).toBe("deleted");
    expect(deleted.changes.fields.deleted_at.before).toBeNull();

    const restore = (id: number, kind = "timber") =>
      api("/measurements/timber/deleted", {
        cookie: w.cookie,
        form: { intent: "restore", kind, id: String(id) },
      });
    const [restored] = await added("timber", m.id, async () => {
      const res = await restore(m.id);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/measurements/timber/${m.id}`);
    });
    expect(restored.action).toBe("restored");
    expect((await timberRow(m.id)).deleted_at).toBeNull();
    expect((await timberRow(m.id)).storage_id).toBe(south.id);
    // A live measurement is not "deleted": nothing to restore.
    expect((await restore(m.id)).status).toBe(404);

    // An inventory of its storage confirmed after the deletion: refused, nothing changes.
    await added("timber", m.id, async () => expect((await del()).status).toBe(200));
    await db()
      .updateTable("storages")
      .set({ last_inventory_confirmed_at: new Date(Date.now() + 60_000) })
      .where("id", "=", south.id)
      .execute();
    await added(
      "timber",
      m.id,
      async () => {
        const res = await restore(m.id);
        expect(res.status).toBe(422);
        expect(res.data).toContain('data-testid="restore-refused"');
      },
      0,
    );
    expect((await timberRow(m.id)).deleted_at).not.toBeNull();

    // Its storage gone: refused too.
    const other = await uploaded(w, "h-3");
    await api(`/api/web_app/storages/${w.storage.id}`, { token: w.token, method: "DELETE" });
    const gone = await historyRows("timber", other.id);
    expect(gone.at(-1)).toMatchObject({ action: "deleted", user_id: w.user.id }); // the storage's deletion took it along
    await added(
      "timber",
      other.id,
      async () => {
        const res = await restore(other.id);
        expect(res.status).toBe(422);
      },
      0,
    );

    // Inventory confirmation locks every counted measurement: one "locked" row each.
    const third = await uploaded(w, "h-4", south.id);
    await db().updateTable("storages").set({ last_inventory_confirmed_at: null }).where("id", "=", south.id).execute();
    const created = await api("/api/web_app/inventories", { token: w.token, json: { storage_id: south.id } });
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const [locked] = await added("timber", third.id, async () => {
      const res = await api(`/api/web_app/inventories/${created.data.data.id}/confirm`, {
        token: w.token,
        method: "POST",
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    });
    expect(locked.action).toBe("locked");
    expect(locked.changes.fields.inventory_id).toEqual({ before: null, after: created.data.data.id });
    // A locked measurement refuses edits (409) and writes nothing.
    await added(
      "timber",
      third.id,
      async () => expect((await patchTimber(w, third.id, { log_length: 4 })).status).toBe(409),
      0,
    );
  });
});

describe("history of lumber and truck measurements (the kind seam)", () => {
  it("lumber: planks added/removed/changed with ids, and the deletion", async () => {
    const w = await org();
    const m = await createLumberMeasurement(w.org.id, w.storage.id);
    const [p0, p1] = m.planks;
    const [row] = await added("lumber", m.id, async () => {
      const res = await api(`/api/web_app/lumber_measurements/${m.id}`, {
        token: w.token,
        method: "PATCH",
        json: {
          planks: [
            { id: p0.id, width: p0.width - 2 },
            { x: 10, y: 12, width: 75, height: 25 },
          ],
          planks_removed: [p1.id],
        },
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    });
    expect(row.changes.planks).toMatchObject({
      added: 1,
      removed: 1,
      changed: 1,
      removed_ids: [p1.id],
      changed_ids: [p0.id],
    });
    expect(row.volume_before).toBeCloseTo(m.volume, 12);
    expect(row.volume_after).toBeCloseTo(m.volume, 12); // one plank out, one in: the same count
    const [deleted] = await added("lumber", m.id, () =>
      api("/api/web_app/lumber_measurements", { token: w.token, method: "DELETE", json: { measurement_ids: [m.id] } }),
    );
    expect(deleted.action).toBe("deleted");
    // The kind's original photo kept its SHA-256 through the shared upload path.
    const stored = await db()
      .selectFrom("lumber_measurements")
      .select(["photo_key", "photo_sha256"])
      .where("id", "=", m.id)
      .executeTakeFirstOrThrow();
    expect(stored.photo_sha256).toBe(
      createHash("sha256")
        .update(await fileStorage().get(stored.photo_key!))
        .digest("hex"),
    );
  });

  it("truck: loads changed and removed, volume before and after as computed by hand", async () => {
    const w = await org(["truck_detection"]);
    const m = await createTruckMeasurement(w.org.id, w.storage.id);
    const loads = (await api(`/api/web_app/truck_measurements/${m.id}`, { token: w.token })).data.data.loads;
    const [row] = await added("truck", m.id, async () => {
      const res = await api(`/api/web_app/truck_measurements/${m.id}`, {
        token: w.token,
        method: "PATCH",
        json: { loads: [{ id: loads[0].id, height: 3 }], loads_removed: [loads[1].id] },
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    });
    // Before: 12.24 + 10.08 = 22.32 m³; after: 3 x 2.4 x 3 x 0.68 = 14.688 m³.
    expect(row.volume_before).toBeCloseTo(22.32, 10);
    expect(row.volume_after).toBeCloseTo(14.688, 10);
    expect(row.changes.loads).toMatchObject({
      removed: 1,
      changed: 1,
      removed_ids: [loads[1].id],
      changed_ids: [loads[0].id],
    });
    const res = await api(`/api/web_app/measurements/${m.id}/history?kind=truck`, { token: w.token });
    expect(res.data.data).toHaveLength(1);
    expect(res.data.data[0].volume_change).toBeCloseTo(14.688 - 22.32, 10);
  });
});

describe("the original photo", () => {
  it("keeps the upload's SHA-256 through the renditions, verifies it, and catches a tampered file", async () => {
    const w = await org();
    const m = await uploaded(w, "p-1");
    const row = await timberRow(m.id);
    const sha = createHash("sha256").update(m.jpeg).digest("hex");
    expect(row.photo_sha256).toBe(sha);
    expect(row.photo_optimized_key).not.toBeNull(); // renditions made, original untouched
    expect((await fileStorage().get(row.photo_key!)).equals(m.jpeg)).toBe(true);

    const page = await api(`/measurements/timber/${m.id}?verify=1`, { cookie: w.cookie });
    expect(page.status).toBe(200);
    expect(page.data).toContain(sha);
    expect(page.data).toMatch(/data-testid="photo-verification"[^>]*data-ok="true"/);

    // The public page shows it too.
    const link = await sharePublicly(w.org.id, "measurement", m.id);
    const shared = await api(link.path);
    expect(shared.status).toBe(200);
    expect(shared.data).toContain(`data-testid="public-photo-sha256">${sha}<`);

    // A rendition is derived: replacing the original by it is a tampered original.
    await fileStorage().put(row.photo_key!, await fileStorage().get(row.photo_optimized_key!));
    const tampered = await api(`/measurements/timber/${m.id}?verify=1`, { cookie: w.cookie });
    expect(tampered.data).toMatch(/data-testid="photo-verification"[^>]*data-ok="false"/);
    await fileStorage().put(row.photo_key!, m.jpeg);
  });
});

describe("every formula side by side", () => {
  it("shows app/domain's figures in the user's unit, the own formula equal to the stored volume", async () => {
    const w = await org();
    const m = await uploaded(w, "f-1");
    const row = await timberRow(m.id);
    const logs = await db()
      .selectFrom("logs")
      .selectAll()
      .where("measurement_id", "=", m.id)
      .where("is_deleted", "=", false)
      .execute();
    const rows = compareFormulas({
      diametersCm: logs.map((l) => l.d),
      lengthM: row.log_length!,
      ownFormula: "cylinder",
    });
    expect(rows.find((r) => r.own)!.totalM3).toBeCloseTo(row.volume, 9);
    const user = await db().selectFrom("users").selectAll().where("id", "=", w.user.id).executeTakeFirstOrThrow();
    const f = formatsFor({
      locale: user.locale,
      timeZone: user.time_zone,
      precision: user.rounding_precision,
      unit: user.volume_unit,
    });
    const page = await api(`/measurements/timber/${m.id}`, { cookie: w.cookie });
    for (const r of rows) {
      const cell = new RegExp(`data-testid="formula-${r.formula}-total"[^>]*>([^<]*)<`).exec(page.data)?.[1];
      if (r.totalM3 === null) expect(cell, r.formula).not.toMatch(/\d/);
      else expect(cell?.replace(/&nbsp;|\u00a0/g, " "), r.formula).toBe(f.volume(r.totalM3).replace(/\u00a0/g, " "));
    }
    expect(rows.filter((r) => r.totalM3 !== null).length).toBeGreaterThanOrEqual(6);
  });
});
