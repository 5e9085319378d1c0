import { describe, expect, it } from "vitest";
import {
  apiToken,
  createCustomField,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createUser,
} from "#tests/factories";
import { containerOrg, createContainerMeasurement, REFERENCE } from "#tests/helpers/containers";
import { api } from "#tests/helpers/http";
import { verifyHistoryChain } from "~/models/measurement-history.server";
import { insertTruckDiameterMeasurement } from "~/models/shipment.server";
import { db } from "~/utils/db.server";

// Issue 24, the kinds that came after the history (docs/decisions/024-trust.md): container
// measurements (PATCH of comment, logs, references, formula and custom-field values; the lock and
// unlock by PATCH and by the batch action) and the cmpc editor's PATCH of truck-diameter and truck
// measurements each write exactly one history row in the change's transaction, with the volume
// before and after; a refused change writes none. Every row is a link of the measurement's hash
// chain, and a row altered behind the app's back breaks it.

const W = "/api/web_app/containers";

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
async function added(kind: string, id: number, change: () => Promise<{ status: number; data: unknown }>, count = 1) {
  const before = (await historyRows(kind, id)).length;
  const res = await change();
  const rows = await historyRows(kind, id);
  expect(rows.length - before, `${res.status} ${JSON.stringify(res.data)} ${JSON.stringify(rows.slice(before))}`).toBe(
    count,
  );
  return rows.slice(before);
}

describe("history of container measurements", () => {
  it("records comment, logs, references, log length, custom-field values, lock and unlock; refusals write nothing", async () => {
    const a = await containerOrg("measurer");
    await createCustomField(a.org.id, { key: "vessel", name: "Vessel", source_key: "container_measurement" });
    // Hand-computed (tests/integration/containers-api.test.ts): 0.36 + 0.1024 + 0.0676 = 0.53 m³.
    const id = await createContainerMeasurement(a.org.id, a.storage.id);
    const patch = (json: unknown) => api(`${W}/measurements/${id}`, { token: a.token, method: "PATCH", json });

    const [comment] = await added("container", id, () => patch({ comment: "Hold 3" }));
    expect(comment).toMatchObject({ action: "edited", user_id: a.user.id, volume_before: 0.53, volume_after: 0.53 });
    expect(comment.changes.fields).toEqual({ comment: { before: null, after: "Hold 3" } });

    const [custom] = await added("container", id, () => patch({ custom_fields: { vessel: "Maru" } }));
    expect(custom.changes.fields.custom_fields.after).toEqual({ vessel: "Maru" });

    // The second log 16 -> 20 cm (0.16 m³), the third removed: 0.36 + 0.16 = 0.52 m³.
    const logs = (await api(`${W}/measurements/${id}?extra_fields=logs`, { token: a.token })).data.data.logs;
    const [edit] = await added("container", id, () =>
      patch({ logs: [{ id: logs[1].id, r: 50 }], logs_removed: [logs[2].id] }),
    );
    expect(edit.action).toBe("edited");
    expect(edit.volume_before).toBeCloseTo(0.53, 10);
    expect(edit.volume_after).toBeCloseTo(0.52, 10);
    expect(edit.changes.logs).toMatchObject({
      added: 0,
      removed: 1,
      changed: 1,
      removed_ids: [logs[2].id],
      changed_ids: [logs[1].id],
    });

    // A 2 m reference as long as the 1 m one: every diameter doubles.
    const [refs] = await added("container", id, () => patch({ references: [{ ...REFERENCE, size: 2 }] }));
    expect(refs.changes.fields.references.after).toEqual([{ ...REFERENCE, size: 2 }]);
    expect(refs.volume_after!).toBeGreaterThan(refs.volume_before!);
    // The log length (JAS is the only container formula, so the formula itself cannot change).
    const [length] = await added("container", id, () => patch({ log_length: 5 }));
    expect(length.changes.fields.log_length).toEqual({ before: 4, after: 5 });
    expect(length.volume_after!).toBeGreaterThan(length.volume_before!);
    await added("container", id, () => patch({ volume_formula: "cylinder" }), 0);

    // Refused: an unknown log (422) and nothing at all changed write no line.
    await added("container", id, () => patch({ logs_removed: [999999999] }), 0);
    await added("container", id, () => patch({ comment: "Hold 3" }), 0);

    const [lock] = await added("container", id, () => patch({ locked_at: "2026-11-22T10:00:00Z" }));
    expect(lock.action).toBe("locked");
    expect(lock.changes.fields.locked_at).toEqual({ before: null, after: "2026-11-22T10:00:00.000Z" });
    // Locked: the geometry is refused (409), no line.
    await added("container", id, () => patch({ log_length: 6 }), 0);
    const [unlock] = await added("container", id, () => patch({ locked_at: null }));
    expect(unlock.action).toBe("unlocked");

    expect(await verifyHistoryChain(db(), { organizationId: a.org.id }, "container", id)).toEqual({
      ok: true,
      entries: 7,
      broken_at: null,
    });
  });

  it("records the batch lock and unlock per measurement, none for one already locked", async () => {
    const a = await containerOrg("measurer");
    const m1 = await createContainerMeasurement(a.org.id, a.storage.id);
    const m2 = await createContainerMeasurement(a.org.id, a.storage.id, { lockedAt: new Date("2026-11-21T10:00:00Z") });
    const batch = (json: unknown) => api(`${W}/measurements/batch_actions`, { token: a.token, method: "PATCH", json });
    const before2 = (await historyRows("container", m2)).length;
    const [locked] = await added("container", m1, () =>
      batch({ measurement_ids: [m1, m2], locked_at: "2026-11-22T10:00:00Z" }),
    );
    expect(locked).toMatchObject({ action: "locked", volume_before: 0.53, volume_after: 0.53 });
    expect((await historyRows("container", m2)).length).toBe(before2);
    const [unlocked] = await added("container", m2, () => batch({ measurement_ids: [m1, m2], locked_at: null }));
    expect(unlocked.action).toBe("unlocked");
    expect(unlocked.changes.fields.locked_at.after).toBeNull();
    expect((await historyRows("container", m1)).map((r) => r.action)).toEqual(["locked", "unlocked"]);
    // A refused batch (another organisation's id: 404) writes nothing.
    await added("container", m1, () => batch({ measurement_ids: [m1, 999999999], locked_at: null }), 0);
  });
});

describe("history of the cmpc editor's measurements", () => {
  // A 1 m reference 400 px long: 4 px per cm; radius 40 px is a 20 cm log, 60 px a 30 cm one.
  const REF = [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }];
  const V = (cm: number) => (Math.PI / 4) * (cm / 100) ** 2 * 3;

  async function cmpcOrg() {
    const org = await createOrganization({ cmpc_enabled: true });
    const user = await createUser(org.id, { role: "measurer" });
    const storage = await createStorage(org.id, { name: "Mill gate" });
    return { org, user, storage, token: await apiToken(user.id), ctx: { organizationId: org.id } };
  }

  it("truck_diameter: logs and references with the volume before and after; a 422 writes nothing", async () => {
    const a = await cmpcOrg();
    const id = await insertTruckDiameterMeasurement(db(), a.ctx, {
      storage_id: a.storage.id,
      taken_at: new Date("2026-11-20T08:00:00Z"),
      shipment_number: "S-1",
      measurement_type_id: 1,
      log_length: 3,
      trailer_license_plate: "TR-1",
      load_bed_name: "Trailer",
      detector: "yolo-logs-v3",
      logs: [40, 60].map((r, i) => ({ x: 100 + i * 150, y: 100, r })),
      references: REF,
    });
    const path = `/api/web_app/measurements/cmpc/truck_diameter/${id}`;
    const patch = (json: unknown) => api(path, { token: a.token, method: "PATCH", json });
    const logs = (await api(path, { token: a.token })).data.data.logs;
    // 20 -> 25 cm, the 30 cm log removed.
    const [edit] = await added("truck_diameter", id, () =>
      patch({ logs: [{ id: logs[0].id, r: 50 }], logs_removed: [logs[1].id] }),
    );
    expect(edit.action).toBe("edited");
    expect(edit.user_id).toBe(a.user.id);
    expect(edit.volume_before).toBeCloseTo(V(20) + V(30), 10);
    expect(edit.volume_after).toBeCloseTo(V(25), 10);
    expect(edit.changes.logs).toMatchObject({ removed_ids: [logs[1].id], changed_ids: [logs[0].id] });
    const [scaled] = await added("truck_diameter", id, () => patch({ references: [{ ...REF[0], size: 2 }] }));
    expect(scaled.changes.fields.reference_lines.after).toEqual([{ ...REF[0], size: 2 }]);
    expect(scaled.volume_after).toBeCloseTo(4 * V(25), 10);
    await added("truck_diameter", id, () => patch({ logs_removed: [999999999] }), 0);
    expect((await verifyHistoryChain(db(), a.ctx, "truck_diameter", id)).ok).toBe(true);
  });

  it("truck: references and formula, the load volume unchanged", async () => {
    const a = await cmpcOrg();
    const t = await createTruckMeasurement(a.org.id, a.storage.id, { plate: "ABC-1", shipmentNumber: "S-2" });
    const path = `/api/web_app/measurements/cmpc/truck/${t.id}`;
    const [edit] = await added("truck", t.id, () =>
      api(path, { token: a.token, method: "PATCH", json: { references: REF, volume_formula: "jas" } }),
    );
    expect(edit.action).toBe("edited");
    expect(edit.volume_before).toBe(edit.volume_after);
    expect(edit.changes.fields.volume_formula.after).toBe("jas");
    expect(edit.changes.fields.reference_lines.after).toEqual(REF);
    await added(
      "truck",
      t.id,
      () => api(path, { token: a.token, method: "PATCH", json: { volume_formula: "no-such" } }),
      0,
    );
  });
});

describe("the hash chain", () => {
  it("links each row to the one before; a row altered or removed in the database breaks it; the API shows the hashes", async () => {
    const a = await containerOrg("measurer");
    const id = await createContainerMeasurement(a.org.id, a.storage.id);
    const ctx = { organizationId: a.org.id };
    for (const comment of ["one", "two", "three"])
      await api(`${W}/measurements/${id}`, { token: a.token, method: "PATCH", json: { comment } });
    const rows = await historyRows("container", id);
    expect(rows).toHaveLength(3);
    expect(rows[0].prev_hash).toBeNull();
    expect(rows[1].prev_hash).toBe(rows[0].hash);
    expect(rows[2].prev_hash).toBe(rows[1].hash);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash!))).toBe(true);
    expect(await verifyHistoryChain(db(), ctx, "container", id)).toEqual({ ok: true, entries: 3, broken_at: null });

    const res = await api(`/api/web_app/measurements/${id}/history?kind=container`, { token: a.token });
    expect(res.data.data.map((e: { hash: string }) => e.hash)).toEqual([rows[2].hash, rows[1].hash, rows[0].hash]);

    // Tampering (as a database user could, bypassing the app): the volume of the middle row.
    await db().updateTable("measurement_history").set({ volume_after: 9 }).where("id", "=", rows[1].id).execute();
    expect(await verifyHistoryChain(db(), ctx, "container", id)).toEqual({
      ok: false,
      entries: 3,
      broken_at: rows[1].id,
    });
    await db()
      .updateTable("measurement_history")
      .set({ volume_after: rows[1].volume_after })
      .where("id", "=", rows[1].id)
      .execute();
    expect((await verifyHistoryChain(db(), ctx, "container", id)).ok).toBe(true);
    // Removing a row: the next one's prev_hash no longer matches.
    await db().deleteFrom("measurement_history").where("id", "=", rows[1].id).execute();
    expect(await verifyHistoryChain(db(), ctx, "container", id)).toEqual({
      ok: false,
      entries: 2,
      broken_at: rows[2].id,
    });
  });
});
