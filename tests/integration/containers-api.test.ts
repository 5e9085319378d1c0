import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createCustomField, createDevice, createOrganization, createStorage, givePlan } from "#tests/factories";
import {
  containerOrg,
  createBill,
  createContainer,
  createContainerMeasurement,
  REFERENCE,
} from "#tests/helpers/containers";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { deviceUpload } from "#tests/helpers/timber";
import { db } from "~/utils/db.server";

// The /containers/* calls (docs/decisions/022-containers.md). Hand-computed figures: a reference
// of 1 m drawn 500 px long is 5 px/cm; logs of radius 75, 40 and 33 px are 30, 16 and 13.2 cm,
// JAS scaling diameters 30, 16 and 13 cm; at 4 m: 0.36 + 0.1024 + 0.0676 = 0.53 m³, 3 logs.

const W = "/api/web_app/containers";
const cm = (id: number) =>
  db().selectFrom("container_measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("bills of lading", () => {
  it("creates a bill by name with a token; 422 without a name; viewers and organisations without the plan are refused", async () => {
    const a = await containerOrg();
    const res = await api(`${W}/bill_of_ladings`, { token: a.token, json: { bill_of_lading: { name: "BL-77" } } });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data.data).toMatchObject({
      name: "BL-77",
      archived: false,
      container_count: 0,
      log_count: 0,
      volume: 0,
    });
    expect(res.data.data.token).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const viewer = await containerOrg("viewer");
    const noPlan = await containerOrg("admin", []);
    const before = await snapshotTables();
    const bad = await api(`${W}/bill_of_ladings`, { token: a.token, json: { bill_of_lading: { name: "  " } } });
    expect(bad.status).toBe(422);
    expect(bad.data.errors).toEqual({ name: ["containers:errors.name"] });
    const long = await api(`${W}/bill_of_ladings`, {
      token: a.token,
      json: { bill_of_lading: { name: "x".repeat(256) } },
    });
    expect(long.data.errors).toEqual({ name: ["containers:errors.tooLong"] });

    const refused = await api(`${W}/bill_of_ladings`, { token: viewer.token, json: { bill_of_lading: { name: "B" } } });
    expect(refused.status).toBe(403);
    const gated = await api(`${W}/bill_of_ladings`, { token: noPlan.token, json: { bill_of_lading: { name: "B" } } });
    expect(gated.status).toBe(403);
    expect(gated.data).toEqual({ error: "feature_unavailable", feature: "container_measurements" });
    expect(await snapshotTables()).toEqual(before);
  });

  it("edits name, contract, assortment and archived, rotates the token; unknown ids are 422; outsiders 404", async () => {
    const a = await containerOrg();
    const billId = await createBill(a.org.id, "BL-1");
    const contract = Number(
      (
        await db()
          .insertInto("container_contracts")
          .values({ organization_id: a.org.id, name: "C-2026-01" })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    const assortment = Number(
      (
        await db()
          .insertInto("assortments")
          .values({ organization_id: a.org.id, name: "Export sawlog" })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    await db()
      .insertInto("public_links")
      .values({ organization_id: a.org.id, kind: "bill_of_lading", record_id: billId, token_hash: "x".repeat(64) })
      .execute();
    const first = (await api(`${W}/bill_of_ladings/${billId}`, { token: a.token })).data.data.token;
    const res = await api(`${W}/bill_of_ladings/${billId}`, {
      token: a.token,
      method: "PATCH",
      json: {
        name: "BL-1 Tokyo",
        contract_id: contract,
        wood_characteristic_id: assortment,
        archived: true,
        token: true,
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.data).toMatchObject({
      name: "BL-1 Tokyo",
      contract_id: contract,
      wood_characteristic_id: assortment,
      archived: true,
    });
    expect(res.data.data.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.data.data.token).not.toBe(first);
    const unarchived = await api(`${W}/bill_of_ladings/${billId}`, {
      token: a.token,
      method: "PATCH",
      json: { bill_of_lading: { archived: false } },
    });
    expect(unarchived.data.data.archived).toBe(false);

    const other = await containerOrg();
    const foreignContract = Number(
      (
        await db()
          .insertInto("container_contracts")
          .values({ organization_id: other.org.id, name: "Theirs" })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    const before = await snapshotTables();
    const bad = await api(`${W}/bill_of_ladings/${billId}`, {
      token: a.token,
      method: "PATCH",
      json: { contract_id: foreignContract, name: "" },
    });
    expect(bad.status).toBe(422);
    expect(bad.data.errors).toEqual({ name: ["containers:errors.name"] });
    const unknown = await api(`${W}/bill_of_ladings/${billId}`, {
      token: a.token,
      method: "PATCH",
      json: { contract_id: foreignContract },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.data.errors).toEqual({ contract_id: ["containers:errors.unknown"] });
    const missing = await api(`${W}/bill_of_ladings/${billId}`, {
      token: a.token,
      method: "PATCH",
      json: { contract_id: 2_000_000_000 },
    });
    expect(missing.data).toEqual(unknown.data);
    const extra = await api(`${W}/bill_of_ladings/${billId}`, {
      token: a.token,
      method: "PATCH",
      json: { color: "red" },
    });
    expect(extra.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);

    await expectOutsiderGets404(({ token }) =>
      api(`${W}/bill_of_ladings/${billId}`, { token, method: "PATCH", json: { archived: true } }),
    );
    const viewer = await containerOrg("viewer");
    const viewerBill = await createBill(viewer.org.id);
    const refused = await api(`${W}/bill_of_ladings/${viewerBill}`, {
      token: viewer.token,
      method: "PATCH",
      json: { archived: true },
    });
    expect(refused.status).toBe(403);

    const list = await api(`${W}/bill_of_ladings/list`, { token: a.token });
    expect(list.data.data).toEqual([{ id: billId, name: "BL-1 Tokyo", archived: false }]);
    const contracts = await api(`${W}/contracts`, { token: a.token });
    expect(contracts.data.data).toEqual([{ id: contract, name: "C-2026-01" }]);
  });
});

describe("containers", () => {
  it("adds containers from a list of names with tare and net weight, reads them by id, by bill and as a list", async () => {
    const a = await containerOrg("measurer");
    const billId = await createBill(a.org.id);
    const res = await api(`${W}/containers`, {
      token: a.token,
      json: {
        container: { bill_of_lading_id: billId, name: ["MSKU 1", "MSKU 2"], tare_weight: 2200, net_weight: 26000 },
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data.data.map((c: { name: string }) => c.name)).toEqual(["MSKU 1", "MSKU 2"]);
    expect(res.data.data[0]).toMatchObject({
      bill_of_lading_id: billId,
      tare_weight: 2200,
      net_weight: 26000,
      log_count: 0,
    });
    const [c1] = res.data.data;
    await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1.id });
    const one = await api(`${W}/containers/${c1.id}`, { token: a.token });
    expect(one.data.data).toMatchObject({ id: c1.id, name: "MSKU 1", log_count: 3, container_log_count: 3 });
    expect(one.data.data.volume).toBeCloseTo(0.53, 10);
    expect(one.data.data.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const byBill = await api(`${W}/containers?bol_id=${billId}`, { token: a.token });
    expect(byBill.data.data.map((c: { id: number }) => c.id)).toEqual(res.data.data.map((c: { id: number }) => c.id));
    const list = await api(`${W}/containers/list`, { token: a.token });
    expect(list.data.data).toHaveLength(2);

    const other = await containerOrg();
    const foreignBill = await createBill(other.org.id);
    const before = await snapshotTables();
    const bad = await api(`${W}/containers`, {
      token: a.token,
      json: { container: { bill_of_lading_id: billId, name: [], tare_weight: "heavy" } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["name", "tare_weight"]);
    const foreign = await api(`${W}/containers`, {
      token: a.token,
      json: { container: { bill_of_lading_id: foreignBill, name: ["X"] } },
    });
    const missing = await api(`${W}/containers`, {
      token: a.token,
      json: { container: { bill_of_lading_id: 2_000_000_000, name: ["X"] } },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.data).toEqual(missing.data);
    expect(await snapshotTables()).toEqual(before);
    await expectOutsiderGets404(({ token }) => api(`${W}/containers/${c1.id}`, { token }));
    await expectOutsiderGets404(({ token }) => api(`${W}/containers?bol_id=${billId}`, { token }));
  });

  it("edits a container: free-text seal number, weight, width and height, numeric tare and net weight", async () => {
    const a = await containerOrg();
    const billId = await createBill(a.org.id);
    const bill2 = await createBill(a.org.id, "BL-2");
    const id = await createContainer(a.org.id, billId);
    const res = await api(`${W}/containers/${id}`, {
      token: a.token,
      method: "PATCH",
      json: {
        container: {
          name: "TGHU 5",
          seal_number: "SL-0099",
          bill_of_lading_id: bill2,
          weight: "28 t",
          width: "2.35 m",
          height: "2.39 m",
          tare_weight: 2250.5,
          net_weight: 25000,
        },
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.data).toMatchObject({
      name: "TGHU 5",
      seal_number: "SL-0099",
      bill_of_lading_id: bill2,
      weight: "28 t",
      width: "2.35 m",
      height: "2.39 m",
      tare_weight: 2250.5,
      net_weight: 25000,
    });
    const before = await snapshotTables();
    const bad = await api(`${W}/containers/${id}`, {
      token: a.token,
      method: "PATCH",
      json: { container: { net_weight: "a lot", seal_number: "x".repeat(65) } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["net_weight", "seal_number"]);
    expect(await snapshotTables()).toEqual(before);
    await expectOutsiderGets404(({ token }) =>
      api(`${W}/containers/${id}`, { token, method: "PATCH", json: { container: { name: "Mine" } } }),
    );
    const viewer = await containerOrg("viewer");
    const theirs = await createContainer(viewer.org.id, null);
    const refused = await api(`${W}/containers/${theirs}`, {
      token: viewer.token,
      method: "PATCH",
      json: { container: { name: "Mine" } },
    });
    expect(refused.status).toBe(403);
  });
});

describe("POST /containers/container_filter", () => {
  it("lists active bills with container count, log count and volume; archived on request; measurement filters narrow", async () => {
    const a = await containerOrg("viewer");
    const b1 = await createBill(a.org.id, "BL-A");
    const b2 = await createBill(a.org.id, "BL-B");
    const archived = await createBill(a.org.id, "BL-OLD");
    await db().updateTable("bill_of_ladings").set({ archived: true }).where("id", "=", archived).execute();
    const c1 = await createContainer(a.org.id, b1, "C1");
    const c2 = await createContainer(a.org.id, b1, "C2");
    await createContainer(a.org.id, b2, "C3");
    await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1 });
    await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1, radii: [75] });
    const late = await createContainerMeasurement(a.org.id, a.storage.id, {
      containerId: c2,
      radii: [40],
      takenAt: new Date("2026-11-25T08:00:00Z"),
    });
    // Deleted and unassigned measurements count for nothing.
    const gone = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c2 });
    await db().updateTable("container_measurements").set({ deleted_at: new Date() }).where("id", "=", gone).execute();
    await createContainerMeasurement(a.org.id, a.storage.id);

    const res = await api(`${W}/container_filter`, { token: a.token, json: {} });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    const byName = Object.fromEntries(res.data.bill_of_ladings.map((b: { name: string }) => [b.name, b]));
    expect(Object.keys(byName).sort()).toEqual(["BL-A", "BL-B"]);
    expect(byName["BL-A"]).toMatchObject({ container_count: 2, log_count: 5 });
    // 0.53 + 0.36 + 0.1024
    expect(byName["BL-A"].volume).toBeCloseTo(0.9924, 10);
    expect(byName["BL-A"].containers.map((c: { name: string; log_count: number }) => [c.name, c.log_count])).toEqual([
      ["C1", 4],
      ["C2", 1],
    ]);
    expect(byName["BL-B"]).toMatchObject({ container_count: 1, log_count: 0, volume: 0 });
    expect(res.data.meta).toMatchObject({ page: 1, total_count: 2, total_pages: 1 });

    const arch = await api(`${W}/container_filter`, { token: a.token, json: { archived: true } });
    expect(arch.data.bill_of_ladings.map((b: { name: string }) => b.name)).toEqual(["BL-OLD"]);

    const narrowed = await api(`${W}/container_filter`, {
      token: a.token,
      json: { taken_at_start: "2026-11-24T00:00:00Z", measurement_ids: `${late}` },
    });
    expect(narrowed.data.bill_of_ladings).toHaveLength(1);
    expect(narrowed.data.bill_of_ladings[0]).toMatchObject({ name: "BL-A", container_count: 1, log_count: 1 });
    expect(narrowed.data.bill_of_ladings[0].volume).toBeCloseTo(0.1024, 10);
    // A measurement filter that keeps nothing: no bills, and the meta says so.
    const none = await api(`${W}/container_filter`, {
      token: a.token,
      json: { taken_at_start: "2030-01-01T00:00:00Z" },
    });
    expect(none.status).toBe(200);
    expect(none.data.bill_of_ladings).toEqual([]);
    expect(none.data.meta).toMatchObject({ page: 1, total_count: 0, total_pages: 1 });
    // The measured bills and the archived flag combine: BL-A is measured but not archived.
    const measuredArchived = await api(`${W}/container_filter`, {
      token: a.token,
      json: { archived: true, measurement_ids: `${late}` },
    });
    expect(measuredArchived.data.bill_of_ladings).toEqual([]);

    const bad = await api(`${W}/container_filter`, {
      token: a.token,
      json: { taken_at_start: "yesterday", volume_range_start: "big", page: 0 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["page", "taken_at_start", "volume_range_start"]);

    const other = await containerOrg();
    const theirs = await api(`${W}/container_filter`, { token: other.token, json: {} });
    expect(theirs.data.bill_of_ladings).toEqual([]);
  });
});

describe("container measurements", () => {
  it("lists a container's measurements with the container's seal number, width and height", async () => {
    const a = await containerOrg("viewer");
    const c = await createContainer(a.org.id, null);
    await db().updateTable("containers").set({ seal_number: "S-1", width: "2.35", height: "2.39" }).execute();
    const id = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c });
    const res = await api(`${W}/measurements?container_id=${c}&extra_fields=logs,references`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.data.data).toHaveLength(1);
    const m = res.data.data[0];
    expect(m).toMatchObject({
      id,
      shown_name: `#${id}`,
      logs_count: 3,
      log_length: 4,
      volume_formula: "jas",
      locked_at: null,
    });
    expect(m.container).toMatchObject({ id: c, seal_number: "S-1", width: "2.35", height: "2.39" });
    expect(m.logs.map((l: { jas_d: number; v: number }) => [l.jas_d, l.v])).toEqual([
      [30, 0.36],
      [16, 0.1024],
      [13, 0.0676],
    ]);
    expect(m.references).toEqual([REFERENCE]);
    const one = await api(`${W}/measurements/${id}?extra_fields=logs`, { token: a.token });
    expect(one.data.data.logs).toHaveLength(3);
    await expectOutsiderGets404(({ token }) => api(`${W}/measurements?container_id=${c}`, { token }));
    await expectOutsiderGets404(({ token }) => api(`${W}/measurements/${id}`, { token }));
  });

  it("batch actions: assign, lock and delete, all or nothing on mixed selections", async () => {
    const a = await containerOrg("measurer");
    const bill = await createBill(a.org.id);
    const c = await createContainer(a.org.id, bill);
    const m1 = await createContainerMeasurement(a.org.id, a.storage.id);
    const m2 = await createContainerMeasurement(a.org.id, a.storage.id);
    const m3 = await createContainerMeasurement(a.org.id, a.storage.id);
    const batch = (json: unknown, token = a.token) =>
      api(`${W}/measurements/batch_actions`, { token, method: "PATCH", json });

    const assigned = await batch({ measurement_ids: [m1, m2, m3], container_id: c });
    expect(assigned.status, JSON.stringify(assigned.data)).toBe(200);
    expect(assigned.data).toEqual({ affected: 3 });
    expect((await cm(m1)).container_id).toBe(c);

    // Lock two; then lock all three: the first two keep their lock time.
    expect((await batch({ measurement_ids: [m1, m2], locked_at: "2026-11-21T10:00:00Z" })).status).toBe(200);
    expect((await batch({ measurement_ids: [m1, m2, m3], locked_at: "2026-11-22T10:00:00Z" })).status).toBe(200);
    expect((await cm(m1)).locked_at?.toISOString()).toBe("2026-11-21T10:00:00.000Z");
    expect((await cm(m3)).locked_at?.toISOString()).toBe("2026-11-22T10:00:00.000Z");
    // Unlock the third only.
    expect((await batch({ measurement_ids: [m3], locked_at: null })).status).toBe(200);
    expect((await cm(m3)).locked_at).toBeNull();

    const other = await containerOrg();
    const foreignContainer = await createContainer(other.org.id, null);
    const foreignMeasurement = await createContainerMeasurement(other.org.id, other.storage.id);
    const before = await snapshotTables();
    // A mixed selection with a locked measurement: nothing moves, nothing is deleted.
    const moveLocked = await batch({ measurement_ids: [m3, m1], container_id: null });
    expect(moveLocked.status).toBe(422);
    expect(moveLocked.data.errors).toEqual({ "measurement_ids.1": ["containers:errors.locked"] });
    const deleteLocked = await batch({ measurement_ids: [m3, m2], delete: true });
    expect(deleteLocked.status).toBe(422);
    expect(deleteLocked.data.errors).toEqual({ "measurement_ids.1": ["containers:errors.locked"] });
    // Another organisation's measurement in the selection: 404, nothing changes.
    expect((await batch({ measurement_ids: [m3, foreignMeasurement], locked_at: "2026-11-22T10:00:00Z" })).status).toBe(
      404,
    );
    // Another organisation's container: answered as an unknown one.
    const foreign = await batch({ measurement_ids: [m3], container_id: foreignContainer });
    const missing = await batch({ measurement_ids: [m3], container_id: 2_000_000_000 });
    expect(foreign.status).toBe(422);
    expect(foreign.data).toEqual(missing.data);
    const none = await batch({ measurement_ids: [m3] });
    expect(none.status).toBe(422);
    expect(none.data.errors).toEqual({ _: ["containers:errors.oneAction"] });
    const two = await batch({ measurement_ids: [m3], delete: true, locked_at: null });
    expect(two.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);

    const viewer = await containerOrg("viewer");
    const theirs = await createContainerMeasurement(viewer.org.id, viewer.storage.id);
    expect((await batch({ measurement_ids: [theirs], delete: true }, viewer.token)).status).toBe(403);

    const deleted = await batch({ measurement_ids: [m3], delete: true });
    expect(deleted.status).toBe(200);
    expect((await cm(m3)).deleted_at).not.toBeNull();
  });

  it("PATCH: comment, custom fields and lock at any time; logs, references and formula refused while locked", async () => {
    const a = await containerOrg("measurer", ["container_measurements", "custom_fields"]);
    const id = await createContainerMeasurement(a.org.id, a.storage.id);
    await createCustomField(a.org.id, {
      key: "vessel",
      name: "Vessel",
      source_key: "container_measurement",
      required: true,
    });
    const patch = (json: unknown, mid = id, token = a.token) =>
      api(`${W}/measurements/${mid}`, { token, method: "PATCH", json });

    // Editing the logs: the third log is removed, the second made bigger (r 50 -> 20 cm, 0.16 m³).
    const logs = (await api(`${W}/measurements/${id}?extra_fields=logs`, { token: a.token })).data.data.logs;
    const edited = await patch({ logs: [{ id: logs[1].id, r: 50 }], logs_removed: [logs[2].id] });
    expect(edited.status, JSON.stringify(edited.data)).toBe(200);
    expect(edited.data.data.logs_count).toBe(2);
    expect(edited.data.data.volume).toBeCloseTo(0.52, 10);

    const required = await patch({ custom_fields: { vessel: "" } });
    expect(required.status).toBe(422);
    expect(required.data.errors).toEqual({ "custom_fields.vessel": ["timber:errors.requiredCustomField"] });

    const locked = await patch({
      locked_at: "2026-11-22T10:00:00Z",
      comment: "Sealed",
      custom_fields: { vessel: "Maru" },
    });
    expect(locked.status, JSON.stringify(locked.data)).toBe(200);
    expect(locked.data.data).toMatchObject({ comment: "Sealed", custom_fields: { vessel: "Maru" } });
    expect(locked.data.data.locked_at).toBe("2026-11-22T10:00:00.000Z");

    const before = await snapshotTables();
    for (const body of [
      { logs: [{ id: logs[0].id, r: 10 }] },
      { logs_removed: [logs[0].id] },
      { references: [{ ...REFERENCE, size: 2 }] },
      { volume_formula: "jas" },
      { log_length: 5 },
    ]) {
      const refused = await patch(body);
      expect(refused.status, JSON.stringify(body)).toBe(409);
      expect(refused.data.errors).toEqual({ _: ["containers:errors.locked"] });
    }
    const formula = await patch({ volume_formula: "cylinder" });
    expect(formula.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);

    // Comment still editable while locked; unlocking lets the editor save again.
    expect((await patch({ comment: "Checked" })).status).toBe(200);
    expect((await patch({ locked_at: null })).status).toBe(200);
    expect((await patch({ log_length: 5 })).status).toBe(200);

    await expectOutsiderGets404(({ token }) => patch({ comment: "x" }, id, token));
    const viewer = await containerOrg("viewer");
    const theirs = await createContainerMeasurement(viewer.org.id, viewer.storage.id);
    expect((await patch({ comment: "x" }, theirs, viewer.token)).status).toBe(403);
  });

  it("a device uploads a container measurement through the shared envelope: JAS figures, photo, idempotent retry", async () => {
    const a = await containerOrg();
    await givePlan(a.org.id);
    const device = await createDevice(a.org.id);
    const c = await createContainer(a.org.id, null);
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#8a6a45" } })
      .jpeg()
      .toBuffer();
    const measurement = {
      client_id: "container-1",
      taken_at: "2026-11-20T08:30:00Z",
      storage_id: a.storage.id,
      container_id: c,
      log_length: 4,
      logs: [
        { x: 100, y: 100, r: 75 },
        { x: 300, y: 100, r: 40 },
        { x: 500, y: 100, r: 33 },
      ],
      references: [REFERENCE],
    };
    const path = "/api/device/container_measurements";
    const res = await deviceUpload(device.token, { measurement, photo: jpeg }, path);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data.measurement).toMatchObject({ container_id: c, logs_count: 3, volume_formula: "jas" });
    expect(res.data.measurement.volume).toBeCloseTo(0.53, 10);
    expect((await cm(res.data.measurement.id)).photo_key).toBeTruthy();
    const again = await deviceUpload(device.token, { measurement, photo: jpeg }, path);
    expect(again.status).toBe(200);
    expect(again.data.measurement.id).toBe(res.data.measurement.id);

    const other = await createOrganization();
    const foreignStorage = await createStorage(other.id, { name: "Elsewhere" });
    const bad = await deviceUpload(
      device.token,
      {
        measurement: { ...measurement, client_id: "container-2", logs: [{ x: 1, y: 1, r: 1 }], references: [] },
        photo: jpeg,
      },
      path,
    );
    expect(bad.status).toBe(422);
    expect(bad.data.errors).toEqual({ references: ["timber:errors.referenceNeeded"] });
    const refused = await deviceUpload(
      device.token,
      { measurement: { ...measurement, client_id: "container-3", storage_id: foreignStorage.id }, photo: jpeg },
      path,
    );
    expect(refused.status).toBe(422);
  });
});
