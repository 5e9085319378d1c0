import { describe, expect, it } from "vitest";
import { seedDemo } from "#db/seed/demo";
import { seedInventories } from "#db/seed/inventories";
import {
  addRole,
  apiToken,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { getInventory, listInventories } from "~/models/inventory.server";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

// Issue 16: a storage with known measurements of each type across two months is inventoried,
// confirmed and inventoried again; every figure of the list, the items and the xlsx is checked to
// the cent of a m³, and the locked measurements refuse every mutating route.

const OCT = (day: number) => new Date(Date.UTC(2026, 9, day, 10));
const NOV = (day: number) => new Date(Date.UTC(2026, 10, day, 10));

async function setup(opts: { features?: string[]; role?: "admin" | "measurer" | "viewer" } = {}) {
  const org = await createOrganization({ name: "Yard Co", features: opts.features ?? ["inventories"] });
  const user = await createUser(org.id, { role: opts.role ?? "admin", name: "Kati Kask" });
  await db()
    .updateTable("users")
    .set({ rounding_precision: 2, volume_unit: "m^3", time_zone: "UTC" })
    .where("id", "=", user.id)
    .execute();
  const storage = await createStorage(org.id, { name: "North yard" });
  return { org, user, storage, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

async function assortment(orgId: number, name: string) {
  const r = await db().insertInto("assortments").values({ organization_id: orgId, name }).executeTakeFirstOrThrow();
  return Number(r.insertId);
}

async function timber(
  orgId: number,
  storageId: number,
  o: {
    type: number;
    volume: number;
    takenAt: Date;
    assortmentId?: number | null;
    logs?: Array<[number | null, number]>;
  },
) {
  const m = await createMeasurement(orgId, storageId, { volume: o.volume, takenAt: o.takenAt });
  await db()
    .updateTable("measurements")
    .set({ measurement_type_id: o.type, assortment_id: o.assortmentId ?? null, volume_formula: "cylinder" })
    .where("id", "=", m.id)
    .execute();
  for (const [assortmentId, v] of o.logs ?? []) {
    await db()
      .insertInto("logs")
      .values({
        organization_id: orgId,
        measurement_id: m.id,
        x: 10,
        y: 10,
        r: 5,
        d: 20,
        v,
        assortment_id: assortmentId,
      })
      .execute();
  }
  return m.id;
}

/** October: incoming 10 (A), outgoing 4 (B), stock 5 split by logs 2.5 A / 2.5 B, control 1.25 unsorted, lumber 0.8. */
async function october(orgId: number, storageId: number) {
  const a = await assortment(orgId, "Spruce sawlog");
  const b = await assortment(orgId, "Pine pulp");
  const product = Number(
    (
      await db()
        .insertInto("lumber_products")
        .values({
          organization_id: orgId,
          name: "Board 50x150",
          plank_length: 4200,
          plank_width: 150,
          plank_height: 50,
        })
        .executeTakeFirstOrThrow()
    ).insertId,
  );
  const ids = [
    await timber(orgId, storageId, { type: 1, volume: 10, takenAt: OCT(2), assortmentId: a }),
    await timber(orgId, storageId, { type: 2, volume: 4, takenAt: OCT(5), assortmentId: b }),
    // Logs without their own assortment count under the measurement's (A): 2 of 4 parts.
    await timber(orgId, storageId, {
      type: 0,
      volume: 5,
      takenAt: OCT(20),
      assortmentId: a,
      logs: [
        [null, 1],
        [null, 1],
        [b, 2],
      ],
    }),
    await timber(orgId, storageId, { type: 3, volume: 1.25, takenAt: OCT(30) }),
  ];
  const lumber = Number(
    (
      await db()
        .insertInto("lumber_measurements")
        .values({
          organization_id: orgId,
          storage_id: storageId,
          lumber_product_id: product,
          measurement_type_id: 0,
          taken_at: OCT(31),
          volume: 0.8,
          custom_fields: "{}",
        })
        .executeTakeFirstOrThrow()
    ).insertId,
  );
  return { a, b, product, ids, lumber };
}

type Item = { key: string | null; name: string | null; inventory: number; calculated: number; diff: number };
const close = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 2);
function expectItems(items: Item[], expected: Array<[string | null, number, number, number]>) {
  expect(items.map((i) => i.name)).toEqual(expected.map((e) => e[0]));
  expected.forEach(([, inv, calc, diff], n) => {
    close(items[n].inventory, inv);
    close(items[n].calculated, calc);
    close(items[n].diff, diff);
  });
}

describe("inventories: create, confirm, re-inventory", () => {
  it("counts each type across two months, locks on confirmation, and the next inventory starts from it", async () => {
    const s = await setup();
    const oct = await october(s.org.id, s.storage.id);

    const created = await api("/api/web_app/inventories", { token: s.token, json: { storage_id: s.storage.id } });
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const first = created.data.data;
    expect(first).toMatchObject({
      storage_id: s.storage.id,
      storage_name: "North yard",
      confirmed: false,
      creator_name: "Kati Kask",
    });
    const s1 = first.summary;
    close(s1.incoming_volume, 10);
    close(s1.outgoing_volume, 4);
    close(s1.real_total, 7.05);
    close(s1.measured_volume, 7.05);
    close(s1.opening_volume, 0);
    close(s1.calculated_volume, 6);
    close(s1.inventoried_volume, 7.05);
    close(s1.diff_volume, 1.05);
    expect(s1.measurements_count).toBe(5);
    expectItems(first.list_items, [
      ["Board 50x150", 0.8, 0, 0.8],
      ["Pine pulp", 2.5, -4, 6.5],
      ["Spruce sawlog", 2.5, 10, -7.5],
      [null, 1.25, 0, 1.25],
    ]);

    // A second open inventory of the same storage is refused.
    const again = await api("/api/web_app/inventories", { token: s.token, json: { storage_id: s.storage.id } });
    expect(again.status).toBe(422);
    expect(again.data.errors).toEqual({ storage_id: ["inventories:errors.openInventory"] });

    // Nothing is locked before confirmation.
    expect(await lockedIds(s.org.id)).toEqual({ timber: [], lumber: [] });
    const confirmed = await api(`/api/web_app/inventories/${first.id}/confirm`, { token: s.token, method: "POST" });
    expect(confirmed.status, JSON.stringify(confirmed.data)).toBe(200);
    expect(confirmed.data.data.confirmed).toBe(true);
    expect(confirmed.data.locked).toEqual({ timber: 4, lumber: 1 });
    expect(await lockedIds(s.org.id)).toEqual({ timber: oct.ids.map(() => first.id), lumber: [first.id] });
    const storage = await db()
      .selectFrom("storages")
      .selectAll()
      .where("id", "=", s.storage.id)
      .executeTakeFirstOrThrow();
    expect(storage.last_inventory_confirmed_at).not.toBeNull();
    // The confirmed figures are those it showed open.
    close(confirmed.data.data.summary.diff_volume, 1.05);

    // One way: a second confirm is 422 and changes nothing.
    const before = await snapshotTables();
    const twice = await api(`/api/web_app/inventories/${first.id}/confirm`, { token: s.token, method: "POST" });
    expect(twice.status).toBe(422);
    expect(twice.data.errors).toEqual({ _: ["inventories:errors.alreadyConfirmed"] });
    expect(await snapshotTables()).toEqual(before);

    // Nothing left to count until November's measurements.
    const empty = await api("/api/web_app/inventories", { token: s.token, json: { storage_id: s.storage.id } });
    expect(empty.status).toBe(422);
    expect(empty.data.errors).toEqual({ storage_id: ["inventories:errors.nothingToCount"] });

    // November: incoming 3 (A), stock 7 (A); a deleted stock measurement does not count.
    await timber(s.org.id, s.storage.id, { type: 1, volume: 3, takenAt: NOV(3), assortmentId: oct.a });
    await timber(s.org.id, s.storage.id, { type: 0, volume: 7, takenAt: NOV(20), assortmentId: oct.a });
    const gone = await timber(s.org.id, s.storage.id, { type: 0, volume: 100, takenAt: NOV(21) });
    await db().updateTable("measurements").set({ deleted_at: new Date() }).where("id", "=", gone).execute();

    const second = await api("/api/web_app/inventories", { token: s.token, json: { storage_id: s.storage.id } });
    expect(second.status).toBe(201);
    const s2 = second.data.data.summary;
    expect(second.data.data.previous_inventory_id).toBe(first.id);
    close(s2.opening_volume, 7.05);
    close(s2.incoming_volume, 3);
    close(s2.outgoing_volume, 0);
    close(s2.calculated_volume, 10.05);
    close(s2.real_total, 7);
    close(s2.inventoried_volume, 7);
    close(s2.diff_volume, -3.05);
    expectItems(second.data.data.list_items, [
      ["Board 50x150", 0, 0.8, -0.8],
      ["Pine pulp", 0, 2.5, -2.5],
      ["Spruce sawlog", 7, 5.5, 1.5],
      [null, 0, 1.25, -1.25],
    ]);

    // The list: newest first, the same figures, filtered by storage and month.
    const list = await api("/api/web_app/inventories", { token: s.token });
    expect(list.status).toBe(200);
    expect(list.data.inventories.map((i: { id: number }) => i.id)).toEqual([second.data.data.id, first.id]);
    expect(list.data.inventories[1].summary).toEqual(confirmed.data.data.summary);
    expect(list.data.inventories[0].list_items).toEqual(second.data.data.list_items);
    const month = new Date().toISOString().slice(0, 7);
    expect((await api(`/api/web_app/inventories?month=${month}`, { token: s.token })).data.inventories).toHaveLength(2);
    expect((await api("/api/web_app/inventories?month=2020-01", { token: s.token })).data.inventories).toHaveLength(0);
    const other = await createStorage(s.org.id, { name: "South yard" });
    expect(
      (await api(`/api/web_app/inventories?storage_id=${other.id}`, { token: s.token })).data.inventories,
    ).toHaveLength(0);
    expect((await api("/api/web_app/inventories?month=2026-13", { token: s.token })).status).toBe(422);

    // The Excel of the storage's inventories: the same numbers, read back.
    const exp = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "inventories_excel", storage_id: s.storage.id },
    });
    expect(exp.status, JSON.stringify(exp.data)).toBe(201);
    const row = await waitForExport(exp.data.id);
    expect([row.status, row.status_detail]).toEqual([1, null]);
    const wb = await readXlsx((await download(exp.data.id, { cookie: s.cookie })).body);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Inventories", "Items"]);
    const [summary, items] = wb.worksheets;
    expect((summary.getRow(1).values as unknown[]).slice(1)).toEqual([
      "Inventory",
      "Storage",
      "Created by",
      "Created",
      "Confirmed",
      "Measurements",
      "Last inventory (m³)",
      "Incoming (m³)",
      "Outgoing (m³)",
      "Calculated (m³)",
      "Real (m³)",
      "Inventoried (m³)",
      "Diff (m³)",
    ]);
    const cells = (ws: typeof summary, r: number, from: number) => (ws.getRow(r).values as unknown[]).slice(from);
    expect(cells(summary, 2, 1).slice(0, 3)).toEqual([first.id, "North yard", "Kati Kask"]);
    expect(cells(summary, 2, 6)).toEqual([5, 0, 10, 4, 6, 7.05, 7.05, 1.05]);
    expect(cells(summary, 3, 7)).toEqual([7.05, 3, 0, 10.05, 7, 7, -3.05]);
    expect(summary.getRow(3).getCell(5).value).toBeNull();
    expect([2, 3, 4, 5, 6, 7, 8, 9].map((r) => cells(items, r, 1))).toEqual([
      [first.id, "North yard", "Board 50x150", 0.8, 0, 0.8],
      [first.id, "North yard", "Pine pulp", 2.5, -4, 6.5],
      [first.id, "North yard", "Spruce sawlog", 2.5, 10, -7.5],
      [first.id, "North yard", "Unsorted", 1.25, 0, 1.25],
      [second.data.data.id, "North yard", "Board 50x150", 0, 0.8, -0.8],
      [second.data.data.id, "North yard", "Pine pulp", 0, 2.5, -2.5],
      [second.data.data.id, "North yard", "Spruce sawlog", 7, 5.5, 1.5],
      [second.data.data.id, "North yard", "Unsorted", 0, 1.25, -1.25],
    ]);
  });

  it("locked measurements refuse every mutating route, and nothing changes", async () => {
    const s = await setup();
    const oct = await october(s.org.id, s.storage.id);
    const inv = await api("/api/web_app/inventories", { token: s.token, json: { storage_id: s.storage.id } });
    await api(`/api/web_app/inventories/${inv.data.data.id}/confirm`, { token: s.token, method: "POST" });
    const target = await createStorage(s.org.id, { name: "Target" });
    const [m] = oct.ids;
    const before = await snapshotTables();
    const refusals: Array<[string, Awaited<ReturnType<typeof api>>, number]> = [
      [
        "PATCH /measurements/{id}",
        await api(`/api/web_app/measurements/${m}`, { token: s.token, method: "PATCH", json: { log_length: 5 } }),
        409,
      ],
      [
        "DELETE /measurements",
        await api("/api/web_app/measurements", { token: s.token, method: "DELETE", json: { measurement_ids: [m] } }),
        422,
      ],
      [
        "PATCH /measurements/move_storage",
        await api("/api/web_app/measurements/move_storage", {
          token: s.token,
          method: "PATCH",
          json: { move_storage: [{ measurement_id: m, storage_id: target.id }] },
        }),
        422,
      ],
      [
        "PATCH /lumber_measurements/{id}",
        await api(`/api/web_app/lumber_measurements/${oct.lumber}`, {
          token: s.token,
          method: "PATCH",
          json: { planks_removed: [] },
        }),
        409,
      ],
      [
        "DELETE /lumber_measurements",
        await api("/api/web_app/lumber_measurements", {
          token: s.token,
          method: "DELETE",
          json: { measurement_ids: [oct.lumber] },
        }),
        422,
      ],
      [
        "POST /manual_measurements before the confirmation",
        await api("/api/web_app/manual_measurements", {
          token: s.token,
          json: {
            manual_measurement: {
              storage_id: s.storage.id,
              taken_at: OCT(15).toISOString(),
              measurement_type_id: 0,
              volume: 3,
            },
          },
        }),
        422,
      ],
    ];
    for (const [name, res, status] of refusals)
      expect([name, res.status], JSON.stringify(res.data)).toEqual([name, status]);
    expect(refusals[0][1].data).toEqual({ error: "locked", errors: { _: ["timber:detail.locked"] } });
    expect(refusals[1][1].data.errors).toEqual({ "measurement_ids.0": ["timber:errors.inInventory"] });
    expect(refusals[2][1].data.errors).toEqual({ "move_storage.0.measurement_id": ["timber:errors.inInventory"] });
    expect(await snapshotTables()).toEqual(before);
  });

  it("viewers, missing rights, the plan and other organisations", async () => {
    const s = await setup();
    await october(s.org.id, s.storage.id);
    const viewer = await createUser(s.org.id, { role: "viewer" });
    const viewerToken = await apiToken(viewer.id);
    const before = await snapshotTables();
    const refused = await api("/api/web_app/inventories", { token: viewerToken, json: { storage_id: s.storage.id } });
    expect(refused.status).toBe(422);
    expect(refused.data.errors).toEqual({ storage_id: ["inventories:errors.cannotEdit"] });
    expect(await snapshotTables()).toEqual(before);
    // A viewer reads the list.
    expect((await api("/api/web_app/inventories", { token: viewerToken })).status).toBe(200);

    // A measurer of this storage only may create and confirm; a viewer may not confirm (403).
    const measurer = await createUser(s.org.id, { role: "viewer" });
    await addRole(measurer.id, s.org.id, "measurer", { type: "Storage", id: s.storage.id });
    const measurerToken = await apiToken(measurer.id);
    const created = await api("/api/web_app/inventories", { token: measurerToken, json: { storage_id: s.storage.id } });
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const id = created.data.data.id;
    const snap = await snapshotTables();
    expect((await api(`/api/web_app/inventories/${id}/confirm`, { token: viewerToken, method: "POST" })).status).toBe(
      403,
    );
    expect(await snapshotTables()).toEqual(snap);
    expect((await api(`/api/web_app/inventories/${id}/confirm`, { token: measurerToken, method: "POST" })).status).toBe(
      200,
    );

    // Other organisations: their storage and their inventory are not found, nothing changes.
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/inventories/${id}/confirm`, { token, method: "POST" }),
    );
    const outsider = await setup();
    const outside = await snapshotTables();
    for (const [path, json] of [
      ["/api/web_app/inventories", { storage_id: s.storage.id }],
      ["/api/web_app/excel_exports", { report_type: "inventories_excel", inventory_id: id }],
      ["/api/web_app/excel_exports", { report_type: "inventories_excel", storage_id: s.storage.id }],
    ] as const) {
      const res = await api(path, { token: outsider.token, json });
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await api("/api/web_app/inventories", { token: outsider.token })).data.inventories).toEqual([]);
    expect(await snapshotTables()).toEqual(outside);

    // Without the feature: 403 on the API, 422 on the export.
    const plain = await setup({ features: [] });
    const gated = await api("/api/web_app/inventories", { token: plain.token });
    expect([gated.status, gated.data.error]).toEqual([403, "feature_unavailable"]);
    const exportGated = await api("/api/web_app/excel_exports", {
      token: plain.token,
      json: { report_type: "inventories_excel", storage_id: plain.storage.id },
    });
    expect(exportGated.status).toBe(422);
    // Bad input.
    const bad = await api("/api/web_app/inventories", { token: s.token, json: { storage_id: "abc" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors)).toEqual(["storage_id"]);
  });
});

describe("the inventories page", () => {
  it("lists with real numbers, creates and confirms in two steps without JavaScript, shows the plan warning", async () => {
    const s = await setup();
    await october(s.org.id, s.storage.id);
    // Step one of create: the confirmation (no JavaScript to ask).
    const step = await api("/inventories?index", {
      cookie: s.cookie,
      form: { intent: "create", storage_id: String(s.storage.id), confirmed: "" },
    });
    expect(step.status).toBe(200);
    expect(step.data).toContain('data-testid="confirm-step"');
    expect(step.data).toContain("Create an inventory of North yard?");
    expect(await db().selectFrom("inventories").selectAll().execute()).toHaveLength(0);
    const made = await api("/inventories?index", {
      cookie: s.cookie,
      form: { intent: "create", storage_id: String(s.storage.id), confirmed: "1" },
    });
    expect(made.status).toBe(302);
    const inv = await db().selectFrom("inventories").selectAll().executeTakeFirstOrThrow();
    expect(made.headers.get("location")).toBe(`/inventories?open=${inv.id}`);

    // A second create: the refusals joined by ". ".
    await db().updateTable("users").set({ locale: "en" }).where("id", "=", s.user.id).execute();
    const refused = await api("/inventories?index", {
      cookie: s.cookie,
      form: { intent: "create", storage_id: String(s.storage.id), confirmed: "1" },
    });
    expect(refused.status).toBe(422);
    expect(refused.data).toContain("This storage already has an inventory that is not confirmed");

    const page = await api(`/inventories?open=${inv.id}`, { cookie: s.cookie });
    expect(page.status).toBe(200);
    for (const text of [
      "North yard",
      "Kati Kask",
      "7.05 m³",
      "10.00 m³",
      "4.00 m³",
      "Spruce sawlog",
      "-7.50 m³",
      "Unsorted",
    ])
      expect(page.data, text).toContain(text);

    const confirmStep = await api("/inventories?index", {
      cookie: s.cookie,
      form: { intent: "confirm", inventory_id: String(inv.id), confirmed: "" },
    });
    expect(confirmStep.data).toContain("Confirm the inventory of North yard?");
    expect((await db().selectFrom("inventories").selectAll().executeTakeFirstOrThrow()).confirmed_at).toBeNull();
    const done = await api("/inventories?index", {
      cookie: s.cookie,
      form: { intent: "confirm", inventory_id: String(inv.id), confirmed: "1" },
    });
    expect(done.status).toBe(302);
    expect((await db().selectFrom("inventories").selectAll().executeTakeFirstOrThrow()).confirmed_at).not.toBeNull();
    const after = await api("/inventories", { cookie: s.cookie });
    expect(after.data).toMatch(/<button[^>]*disabled=""[^>]*data-testid="confirm-\d+"/);

    // In the user's language: Japanese texts, the same numbers.
    await db().updateTable("users").set({ locale: "ja" }).where("id", "=", s.user.id).execute();
    const ja = await api(`/inventories?open=${inv.id}`, { cookie: s.cookie });
    for (const text of ["棚卸", "規格なし", "確定済み", "7.05 m³"]) expect(ja.data, text).toContain(text);

    const plain = await setup({ features: [] });
    const warning = await api("/inventories", { cookie: plain.cookie });
    expect(warning.status).toBe(200);
    expect(warning.data).toContain('data-testid="billing-warning"');
    expect(warning.data).toContain('href="/billing"');
  });
});

describe("the demo seed", () => {
  it("confirms each storage six weeks ago, locking what it counted, and opens one inventory since; a second run adds nothing", async () => {
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 24 });
    const made = await seedInventories(db(), seeded.organizationId);
    expect(made).toBeGreaterThanOrEqual(2);
    const ctx = { organizationId: seeded.organizationId, user: { time_zone: "UTC" } };
    const { inventories } = await listInventories(db(), ctx, {});
    expect(inventories).toHaveLength(made);
    const open = inventories.filter((i) => i.confirmed_at === null);
    expect(open).toHaveLength(1);
    const previous = await getInventory(db(), ctx, open[0].previous_inventory_id!);
    // The open one starts from what the confirmed one inventoried, and counts what came since.
    expect(open[0].summary.opening_volume).toBeCloseTo(previous.summary.inventoried_volume, 6);
    expect(previous.summary.measurements_count).toBeGreaterThan(0);
    // Confirmed: what each counted is exactly what it locked.
    const locked = await lockedIds(seeded.organizationId);
    const confirmed = inventories.filter((i) => i.confirmed_at);
    expect(locked.timber.length + locked.lumber.length).toBe(
      confirmed.reduce((n, i) => n + i.summary.measurements_count, 0),
    );
    expect(await seedInventories(db(), seeded.organizationId)).toBe(0);
  });
});

async function lockedIds(orgId: number) {
  const timber = await db()
    .selectFrom("measurements")
    .select("inventory_id")
    .where("organization_id", "=", orgId)
    .where("inventory_id", "is not", null)
    .orderBy("id")
    .execute();
  const lumber = await db()
    .selectFrom("lumber_measurements")
    .select("inventory_id")
    .where("organization_id", "=", orgId)
    .where("inventory_id", "is not", null)
    .execute();
  return { timber: timber.map((r) => r.inventory_id), lumber: lumber.map((r) => r.inventory_id) };
}
