import { describe, expect, it } from "vitest";
import { webCookie } from "#tests/factories";
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
import { containerPatch, docFromLoaded, removeLogs, setReference } from "~/components/editor/editor-model";
import { db } from "~/utils/db.server";

// The container measurement editor (docs/decisions/022-containers.md): its route's data, the
// PATCH its Save sends (the editor's own diff function makes the body), JAS figures recomputed
// on the server, the measurement's history, the lock; and the container mode filter's fields.
// Hand-computed: 1 m reference over 500 px = 5 px/cm; radii 75, 40, 33 px are 30, 16, 13.2 cm,
// JAS 30, 16, 13 cm; at 4 m 0.36 + 0.1024 + 0.0676 = 0.53 m³.

const W = "/api/web_app/containers";
const EDIT = encodeURIComponent("routes/_app+/measurements+/container+/$id_.edit");
const MODE = encodeURIComponent("routes/_app+/measurements+/container+/_index");
const history = (id: number) =>
  db()
    .selectFrom("measurement_history")
    .select(["action", "volume_before", "volume_after", "changes"])
    .where("kind", "=", "container")
    .where("measurement_id", "=", id)
    .orderBy("id")
    .execute();

describe("the container measurement editor", () => {
  it("loads the logs and references, saves the editor's PATCH, recomputes JAS on the server and records history", async () => {
    const a = await containerOrg("measurer");
    const id = await createContainerMeasurement(a.org.id, a.storage.id);
    const cookie = await webCookie(a.user.id);
    const page = await api(`/measurements/container/${id}/edit?_data=${EDIT}`, { cookie });
    expect(page.status, JSON.stringify(page.data)).toBe(200);
    expect(page.data.readOnly).toBe(false);
    expect(page.data.measurement).toMatchObject({ id, formula: "jas", logsCount: 3, lockedAt: null });
    expect(page.data.references).toEqual([REFERENCE]);

    // In the editor: the 13.2 cm log removed, the reference said to be 2 m (so every log doubles:
    // 60 cm and 32 cm, JAS 60 and 32; at 4 m 1.44 + 0.4096 = 1.8496 m³).
    const loaded = docFromLoaded({ logs: page.data.logs, references: page.data.references, formula: "jas" });
    let doc = removeLogs(loaded, new Set([loaded.logs[2].key]));
    doc = setReference(doc, 0, { ...REFERENCE, size: 2 });
    const body = containerPatch(loaded, doc);
    expect(body).toEqual({ logs_removed: [loaded.logs[2].id], references: [{ ...REFERENCE, size: 2 }] });
    const saved = await api(`${W}/measurements/${id}`, { cookie, method: "PATCH", json: body });
    expect(saved.status, JSON.stringify(saved.data)).toBe(200);
    expect(saved.data.data.logs_count).toBe(2);
    expect(saved.data.data.volume).toBeCloseTo(1.8496, 10);
    expect(
      saved.data.data.logs.filter((l: { isDeleted: boolean }) => !l.isDeleted).map((l: { jas_d: number }) => l.jas_d),
    ).toEqual([60, 32]);
    expect(saved.data.data.references).toEqual([{ ...REFERENCE, size: 2 }]);

    const lines = await history(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ action: "edited" });
    expect(Number(lines[0].volume_before)).toBeCloseTo(0.53, 10);
    expect(Number(lines[0].volume_after)).toBeCloseTo(1.8496, 10);
    const changes = typeof lines[0].changes === "string" ? JSON.parse(lines[0].changes) : lines[0].changes;
    expect(changes.logs).toMatchObject({ removed: 1, removed_ids: [loaded.logs[2].id] });
    expect(changes.fields.references).toEqual({ before: [REFERENCE], after: [{ ...REFERENCE, size: 2 }] });

    // A new log drawn in the editor (no id) and a moved one.
    const again = await api(`/measurements/container/${id}/edit?_data=${EDIT}`, { cookie });
    const second = docFromLoaded({ logs: again.data.logs, references: again.data.references, formula: "jas" });
    const added = containerPatch(second, {
      ...second,
      logs: [
        { ...second.logs[0], x: second.logs[0].x + 5 },
        second.logs[1],
        { key: "n1", id: null, x: 700, y: 200, r: 40, cullId: null, assortmentId: null, modified: true },
      ],
    });
    expect(added).toEqual({
      logs: [
        { id: second.logs[0].id, x: second.logs[0].x + 5 },
        { x: 700, y: 200, r: 40 },
      ],
    });
    const res = await api(`${W}/measurements/${id}`, { cookie, method: "PATCH", json: added });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.data.logs_count).toBe(3);
    expect(res.data.data.volume).toBeCloseTo(1.8496 + 0.4096, 10);
  });

  it("a locked measurement opens locked; its logs cannot be saved (409) and nothing is written; viewers and outsiders are refused", async () => {
    const a = await containerOrg("admin");
    const id = await createContainerMeasurement(a.org.id, a.storage.id, { lockedAt: new Date("2026-11-22T10:00:00Z") });
    const cookie = await webCookie(a.user.id);
    const page = await api(`/measurements/container/${id}/edit?_data=${EDIT}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.data.measurement.lockedAt).toBe("2026-11-22T10:00:00.000Z");
    const loaded = docFromLoaded({ logs: page.data.logs, references: page.data.references, formula: "jas" });
    const body = containerPatch(loaded, removeLogs(loaded, new Set([loaded.logs[0].key])));
    const before = await snapshotTables();
    const refused = await api(`${W}/measurements/${id}`, { cookie, method: "PATCH", json: body });
    expect(refused.status).toBe(409);
    expect(refused.data).toEqual({ error: "locked", errors: { _: ["containers:errors.locked"] } });
    expect(await snapshotTables()).toEqual(before);

    // 422s: a log without its radius, an unknown log, a radius of 0, another formula.
    const open = await createContainerMeasurement(a.org.id, a.storage.id);
    const before422 = await snapshotTables();
    for (const [json, errors] of [
      [{ logs: [{ x: 1, y: 1 }] }, { "logs.0": ["timber:errors.logNeedsXYR"] }],
      [{ logs_removed: [999_999_999] }, { "logs_removed.0": ["timber:errors.unknown"] }],
      [{ logs: [{ x: 1, y: 1, r: 0 }] }, { "logs.0.r": ["timber:errors.positive"] }],
      [{ volume_formula: "cylinder" }, { volume_formula: ["containers:errors.formula"] }],
      [{ area: [] }, { _: ["containers:errors.unknownField", "containers:errors.emptyPatch"] }],
    ] as const) {
      const res = await api(`${W}/measurements/${open}`, { cookie, method: "PATCH", json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.data.errors, JSON.stringify(json)).toMatchObject(errors);
    }
    expect(await snapshotTables()).toEqual(before422);

    // A viewer of the organisation may look (read-only), not save.
    const viewer = await containerOrg("viewer");
    const theirs = await createContainerMeasurement(viewer.org.id, viewer.storage.id);
    const viewerCookie = await webCookie(viewer.user.id);
    const look = await api(`/measurements/container/${theirs}/edit?_data=${EDIT}`, { cookie: viewerCookie });
    expect(look.status).toBe(200);
    expect(look.data.readOnly).toBe(true);
    const viewerSave = await api(`${W}/measurements/${theirs}`, {
      cookie: viewerCookie,
      method: "PATCH",
      json: { logs_removed: [look.data.logs[0].id] },
    });
    expect(viewerSave.status).toBe(403);

    // Another organisation: the editor and the PATCH are 404, nothing changes.
    await expectOutsiderGets404(({ cookie: c }) =>
      api(`/measurements/container/${id}/edit?_data=${EDIT}`, { cookie: c }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`${W}/measurements/${open}`, { token, method: "PATCH", json: { logs_removed: [1] } }),
    );
    // Without the Container plan the editor is refused.
    const noPlan = await containerOrg("admin", []);
    const gated = await createContainerMeasurement(noPlan.org.id, noPlan.storage.id);
    const refusedPlan = await api(`/measurements/container/${gated}/edit?_data=${EDIT}`, {
      cookie: await webCookie(noPlan.user.id),
    });
    expect(refusedPlan.status).toBe(403);
  });

  it("batch assignment and locking are lines of each measurement's history; a lock keeps the earlier one", async () => {
    const a = await containerOrg("measurer");
    const bill = await createBill(a.org.id);
    const c = await createContainer(a.org.id, bill);
    const m1 = await createContainerMeasurement(a.org.id, a.storage.id);
    const m2 = await createContainerMeasurement(a.org.id, a.storage.id, { lockedAt: new Date("2026-11-01T00:00:00Z") });
    const batch = (json: unknown) => api(`${W}/measurements/batch_actions`, { token: a.token, method: "PATCH", json });
    expect((await batch({ measurement_ids: [m1], container_id: c })).status).toBe(200);
    expect((await batch({ measurement_ids: [m1, m2], locked_at: "2026-11-25T09:00:00Z" })).status).toBe(200);
    expect((await history(m1)).map((h) => h.action)).toEqual(["moved", "locked"]);
    // m2 was locked already: it keeps its time and gets no line.
    expect(await history(m2)).toEqual([]);
  });
});

describe("the container mode filter: every bill-of-lading field", () => {
  async function setup() {
    const a = await containerOrg("admin");
    const bill = await createBill(a.org.id, "BL-SHIP");
    const other = await createBill(a.org.id, "BL-OTHER");
    const c1 = await createContainer(a.org.id, bill, "C-1");
    const c2 = await createContainer(a.org.id, other, "C-2");
    const m1 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1 });
    await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c2, radii: [75] });
    await db().updateTable("container_measurements").set({ shipment_number: "SHIP-9" }).where("id", "=", m1).execute();
    const shipment = Number(
      (
        await db()
          .insertInto("shipments")
          .values({ organization_id: a.org.id, number: "SHIP-9" })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    return { a, bill, other, shipment };
  }
  const names = (res: { data: { bill_of_ladings: Array<{ name: string }> } }) =>
    res.data.bill_of_ladings.map((b) => b.name).sort();

  it("POST /containers/container_filter: shipments by number, the truck fields keep no container measurement, bad input is 422", async () => {
    const { a, shipment } = await setup();
    const call = (json: unknown) => api(`${W}/container_filter`, { token: a.token, json });
    expect(names(await call({}))).toEqual(["BL-OTHER", "BL-SHIP"]);
    const byShipment = await call({ shipment_ids: [shipment] });
    expect(byShipment.status).toBe(200);
    expect(names(byShipment)).toEqual(["BL-SHIP"]);
    expect(byShipment.data.bill_of_ladings[0]).toMatchObject({ log_count: 3, container_count: 1 });
    expect(byShipment.data.bill_of_ladings[0].volume).toBeCloseTo(0.53, 10);
    for (const json of [
      { truck_measurements_only: true },
      { truck_diameter_measurements_only: true },
      { trailer_license_plate: "123 ABC" },
    ])
      expect(names(await call(json)), JSON.stringify(json)).toEqual([]);
    expect(names(await call({ truck_measurements_only: false, trailer_license_plate: "" }))).toHaveLength(2);

    for (const [json, errors] of [
      [
        { truck_measurements_only: true, truck_diameter_measurements_only: true },
        { truck_diameter_measurements_only: ["containers:errors.onlyOne"] },
      ],
      [{ truck_measurements_only: "maybe" }, { truck_measurements_only: ["containers:errors.flag"] }],
      [{ shipment_ids: ["x"] }, { "shipment_ids.0": ["containers:errors.ids"] }],
      [{ trailer_license_plate: "x".repeat(65) }, { trailer_license_plate: ["containers:errors.tooLong"] }],
      [{ device_ids: "1,a" }, { "device_ids.1": ["containers:errors.ids"] }],
      [{ page: 0 }, { page: ["containers:errors.page"] }],
    ] as const) {
      const res = await call(json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.data.errors, JSON.stringify(json)).toMatchObject(errors);
    }
    // Another organisation's shipment matches nothing here.
    const outsider = await containerOrg("admin");
    const theirs = await api(`${W}/container_filter`, { token: outsider.token, json: { shipment_ids: [shipment] } });
    expect(names(theirs)).toEqual([]);
  });

  it("the screen's panel is a GET form: repeated list parameters, the 'only' choice, errors beside the fields", async () => {
    const { a, shipment } = await setup();
    const cookie = await webCookie(a.user.id);
    const screen = (q: string) => api(`/measurements/container?${q}&_data=${MODE}`, { cookie });
    const byShipment = await screen(`shipment_ids=${shipment}&shipment_ids=${shipment + 1000}`);
    expect(byShipment.status).toBe(200);
    expect(byShipment.data.values.shipment_ids).toBe(`${shipment},${shipment + 1000}`);
    expect(names(byShipment)).toEqual(["BL-SHIP"]);
    expect(byShipment.data.filterLookups.shipments).toEqual([{ id: shipment, name: "SHIP-9" }]);
    const only = await screen("only=truck_diameter_measurements_only");
    expect(only.data.values.truck_diameter_measurements_only).toBe("true");
    expect(names(only)).toEqual([]);
    const bad = await screen("device_ids=abc&trailer_license_plate=" + "x".repeat(65));
    expect(bad.status).toBe(200);
    expect(bad.data.filterErrors).toMatchObject({
      "device_ids.0": ["containers:errors.ids"],
      trailer_license_plate: ["containers:errors.tooLong"],
    });
    // The page itself renders every field of the panel.
    const html = (await api(`/measurements/container`, { cookie })).data as string;
    // The multi-selects (each a list of checkboxes of its name, empty when there is nothing to pick).
    for (const name of [
      "measurement_type_ids",
      "wood_type_ids",
      "wood_quality_ids",
      "wood_characteristic_ids",
      "device_ids",
      "shipment_ids",
    ])
      expect(html, name).toContain(`data-testid="multi-${name}"`);
    expect(html).toContain(`name="shipment_ids" value="${shipment}"`);
    for (const name of [
      "measurement_ids",
      "length_range_start",
      "length_range_end",
      "volume_range_start",
      "volume_range_end",
      "created_at_start",
      "created_at_end",
      "measured_at_start",
      "measured_at_end",
      "taken_at_start",
      "taken_at_end",
      "shipment_number",
      "trailer_license_plate",
      "only",
    ])
      expect(html, name).toContain(`name="${name}"`);
  });
});
