import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createStorage, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { waitFor } from "#tests/helpers/wait";
import { db } from "~/utils/db.server";

// Reports end to end against the running app and worker (docs/decisions/021-reports.md): every
// call's answers, the spec's add rules, the job's tallies against a hand calculation under two
// formulas, seen and confirm, the recipient organisation's view and a third organisation's 404s,
// and reports_excel read back with exceljs.

const base = "/api/web_app/reports";

async function world(name = "Seller Co", code: string | null = null) {
  const org = await createOrganization({ name, features: ["reports"] });
  if (code) await db().updateTable("organizations").set({ registration_code: code }).where("id", "=", org.id).execute();
  const admin = await createUser(org.id, { role: "admin" });
  const storage = await createStorage(org.id, { name: "North landing" });
  const id = async (q: { executeTakeFirstOrThrow(): Promise<{ insertId?: bigint }> }) =>
    Number((await q.executeTakeFirstOrThrow()).insertId);
  const sawlog = await id(
    db()
      .insertInto("assortments")
      .values({ organization_id: org.id, name: "Spruce sawlog", price_cents: 5000, volume_unit: "m^3" }),
  );
  const pulp = await id(
    db().insertInto("assortments").values({
      organization_id: org.id,
      name: "Pulpwood",
      price_cents: 900,
      price_per_log_cents: 1250,
      volume_unit: "m^3",
    }),
  );
  const rot = await id(db().insertInto("culls").values({ organization_id: org.id, reason: "Rot" }));
  const measurement = async (
    v: { log_length: number; assortment_id: number | null; inventory_id?: number | null },
    logs: Array<{ d: number; assortment_id?: number | null; cull_id?: number | null; is_deleted?: boolean }>,
  ) => {
    const mid = await id(
      db()
        .insertInto("measurements")
        .values({
          organization_id: org.id,
          storage_id: storage.id,
          taken_at: new Date(Date.UTC(2026, 10, 20, 9)),
          log_length: v.log_length,
          assortment_id: v.assortment_id,
          inventory_id: v.inventory_id ?? null,
          logs_count: logs.length,
          volume: 1,
        }),
    );
    await db()
      .insertInto("logs")
      .values(
        logs.map((l, i) => ({
          organization_id: org.id,
          measurement_id: mid,
          x: 10 * i,
          y: 10,
          r: 5,
          d: l.d,
          v: 0.1,
          assortment_id: l.assortment_id ?? null,
          cull_id: l.cull_id ?? null,
          is_deleted: l.is_deleted ?? false,
        })),
      )
      .execute();
    return mid;
  };
  // The hand-calculated delivery of app/domain/report.test.ts.
  const m1 = await measurement({ log_length: 4, assortment_id: sawlog }, [
    { d: 20.4 },
    { d: 30, assortment_id: pulp },
    { d: 25, cull_id: rot },
    { d: 50, is_deleted: true },
  ]);
  const m2 = await measurement({ log_length: 3, assortment_id: null }, [{ d: 20.9, assortment_id: sawlog }]);
  const inventory = await id(
    db().insertInto("inventories").values({ organization_id: org.id, storage_id: storage.id, open_storage_id: null }),
  );
  const locked = await measurement({ log_length: 4, assortment_id: sawlog, inventory_id: inventory }, [{ d: 40 }]);
  return {
    org,
    admin,
    storage,
    token: await apiToken(admin.id),
    cookie: await webCookie(admin.id),
    sawlog,
    pulp,
    rot,
    m1,
    m2,
    locked,
    measurement,
  };
}

type World = Awaited<ReturnType<typeof world>>;

const row = (id: number) => db().selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const finished = (id: number) =>
  waitFor(async () => ((await row(id)).generating_in_progress ? null : row(id)), {
    timeoutMs: 30_000,
    what: `report ${id}`,
  });

async function createReport(w: World, values: Record<string, unknown> = {}) {
  const res = await api(base, {
    token: w.token,
    json: {
      name: "November delivery",
      volume_formula: "jas",
      volume_unit: "m^3",
      reported_at: "2026-11-27",
      ...values,
    },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data as { id: number; generating_in_progress: boolean };
}

describe("POST /reports and the generation job", () => {
  it("422 with field errors for bad input, nothing written; 201 generating, then finished", async () => {
    const w = await world();
    const before = await snapshotTables();
    const bad = await api(base, {
      token: w.token,
      json: { name: "", volume_formula: "huber", volume_unit: "litre", reported_at: "31.02.2026" },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["name", "reported_at", "volume_formula", "volume_unit"]);
    const unknownCode = await api(base, {
      token: w.token,
      json: { name: "x", reported_at: "2026-11-27", recipient_registration_code: "NOPE-1" },
    });
    expect(unknownCode.status).toBe(422);
    expect(unknownCode.data.errors.recipient_registration_code).toEqual(["reports:errors.unknownRecipient"]);
    expect(await snapshotTables()).toEqual(before);

    const created = await createReport(w, { volume_formula: undefined, volume_unit: undefined });
    expect(created.generating_in_progress).toBe(true);
    const done = await finished(created.id);
    expect(done.volume_formula).toBe("cylinder");
    expect(done.volume_unit).toBe("m^3");
    expect(done.details?.totals.log_count).toBe(0);
  });

  it("without the feature 403; a viewer 403", async () => {
    const w = await world();
    await db().updateTable("organizations").set({ features: "[]" }).where("id", "=", w.org.id).execute();
    expect((await api(base, { token: w.token })).status).toBe(403);
    const v = await world("Viewer Co");
    const viewer = await createUser(v.org.id, { role: "viewer" });
    const res = await api(base, {
      token: await apiToken(viewer.id),
      json: { name: "x", reported_at: "2026-11-27" },
    });
    expect(res.status).toBe(403);
  });
});

describe("PATCH /reports/{id}/add_measurements", () => {
  it("tallies under JAS by hand; skips the inventory's measurement; counts", async () => {
    const w = await world();
    const r = await createReport(w);
    await finished(r.id);
    const res = await api(`${base}/${r.id}/add_measurements`, {
      method: "PATCH",
      token: w.token,
      json: { measurement_ids: [w.m1, w.m2, w.locked] },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.measurements).toEqual({ added_measurements: 2, not_added_measurements: 1 });
    await finished(r.id);
    const got = await api(`${base}/${r.id}`, { token: w.token });
    expect(got.status).toBe(200);
    expect(got.data.measurement_ids).toEqual([w.m1, w.m2]);
    // JAS, 4 m: 20.4 -> 20: 0.16; 30: 0.36; 25 culled -> 24: 0.2304; 3 m: 20.9 -> 20: 0.12.
    expect(got.data.logs).toEqual([
      { diameter: 20, log_count: 2, volume: expect.closeTo(0.28, 9), characteristic_id: w.sawlog, cull_id: null },
      { diameter: 25, log_count: 1, volume: expect.closeTo(0.2304, 9), characteristic_id: null, cull_id: w.rot },
      { diameter: 30, log_count: 1, volume: expect.closeTo(0.36, 9), characteristic_id: w.pulp, cull_id: null },
    ]);
    // 0.28 m³ x 50.00 = 14.00; pulpwood by the log: 12.50.
    expect(got.data.characteristics.map((c: { id: number; value: number }) => [c.id, c.value])).toEqual([
      [w.sawlog, 14],
      [w.pulp, 12.5],
    ]);
    expect(got.data.culls).toEqual([{ id: w.rot, name: "Rot", log_count: 1, volume: expect.closeTo(0.2304, 9) }]);
    expect(got.data.totals.value).toBe(26.5);
  });

  it("cylinder in ft³: the same logs, the textbook volumes", async () => {
    const w = await world();
    const r = await createReport(w, { volume_formula: "cylinder", volume_unit: "ft^3" });
    await api(`${base}/${r.id}/add_measurements`, {
      method: "PATCH",
      token: w.token,
      json: { measurement_ids: [w.m1, w.m2] },
    });
    await finished(r.id);
    const got = await api(`${base}/${r.id}`, { token: w.token });
    const v = (d: number, l: number) => (Math.PI / 4) * (d / 100) ** 2 * l;
    const class20 = v(20.4, 4) + v(20.9, 3); // 0.2336617 m³
    expect(got.data.logs[0].volume).toBeCloseTo(class20 / 0.028316846592, 6);
    expect(got.data.characteristics[0].value).toBe(11.68);
  });

  it("a measurement without assortment whose logs lack one stops everything: 422 naming it", async () => {
    const w = await world();
    const r = await createReport(w);
    await finished(r.id);
    const bad = await w.measurement({ log_length: 4, assortment_id: null }, [{ d: 22 }]);
    const before = await snapshotTables();
    const res = await api(`${base}/${r.id}/add_measurements`, {
      method: "PATCH",
      token: w.token,
      json: { measurement_ids: [w.m1, bad] },
    });
    expect(res.status).toBe(422);
    expect(res.data.error).toBe("missing_assortment");
    expect(res.data.measurement_ids).toEqual([bad]);
    expect(await snapshotTables()).toEqual(before);
    // Unknown ids and bad bodies.
    expect(
      (
        await api(`${base}/${r.id}/add_measurements`, {
          method: "PATCH",
          token: w.token,
          json: { measurement_ids: [999999] },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api(`${base}/${r.id}/add_measurements`, {
          method: "PATCH",
          token: w.token,
          json: { measurement_ids: [] },
        })
      ).status,
    ).toBe(422);
    // Only locked ones: none added, nothing to generate.
    const none = await api(`${base}/${r.id}/add_measurements`, {
      method: "PATCH",
      token: w.token,
      json: { measurement_ids: [w.locked] },
    });
    expect(none.data.measurements).toEqual({ added_measurements: 0, not_added_measurements: 1 });
    expect((await row(r.id)).generating_in_progress).toBe(false);
  });
});

describe("storage calls", () => {
  it("POST /reports/storage/{id} makes a generating report of the storage; PATCH /reports/{r}/storage/{s} adds", async () => {
    const w = await world();
    const res = await api(`${base}/storage/${w.storage.id}`, { token: w.token, json: { volume_formula: "jas" } });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data).toMatchObject({
      generating_in_progress: true,
      measurements: { added_measurements: 2, not_added_measurements: 1 },
    });
    expect(res.data.name).toContain("North landing");
    const done = await finished(res.data.id);
    expect(done.details?.totals.value).toBe(26.5);
    expect(
      (await api(`${base}/storage/${w.storage.id}`, { token: w.token, json: { volume_formula: "x" } })).status,
    ).toBe(422);

    const other = await createReport(w);
    await finished(other.id);
    const added = await api(`${base}/${other.id}/storage/${w.storage.id}`, { method: "PATCH", token: w.token });
    expect(added.data.measurements).toEqual({ added_measurements: 2, not_added_measurements: 1 });

    // The warning stops the storage call too, before anything is created.
    await w.measurement({ log_length: 4, assortment_id: null }, [{ d: 22 }]);
    const before = await snapshotTables();
    const refused = await api(`${base}/storage/${w.storage.id}`, { token: w.token, json: { volume_formula: "jas" } });
    expect(refused.status).toBe(422);
    expect(refused.data.error).toBe("missing_assortment");
    expect(await snapshotTables()).toEqual(before);
  });
});

describe("seen, confirm, the recipient and a third organisation", () => {
  it("the buyer's admins see, open (seen) and confirm it, once; the seller cannot confirm; others get 404", async () => {
    const seller = await world("Seller Co");
    const buyer = await world("Buyer Sawmill", "BUY-42");
    const third = await world("Third Co");
    const r = await createReport(seller, { recipient_registration_code: "BUY-42" });
    await api(`${base}/${r.id}/add_measurements`, {
      method: "PATCH",
      token: seller.token,
      json: { measurement_ids: [seller.m1, seller.m2] },
    });
    await finished(r.id);
    expect((await row(r.id)).recipient_organization_id).toBe(buyer.org.id);

    // The buyer's list has it (received), with nothing else of the seller's.
    const list = await api(base, { token: buyer.token });
    const ids = list.data.data.map((x: { id: number }) => x.id);
    expect(ids).toEqual([r.id]);
    expect(list.data.data[0]).toMatchObject({ direction: "received", counterpart: "Seller Co", unseen: true });
    // The seller's side is not its audience: not "unseen" for it.
    expect((await api(base, { token: seller.token })).data.data[0]).toMatchObject({ direction: "sent", unseen: false });

    // Opening the page marks it seen (the buyer is the audience); the seller opening it does not.
    expect((await api(`/reports/${r.id}`, { cookie: seller.cookie })).status).toBe(200);
    expect((await row(r.id)).seen_at).toBeNull();
    expect((await api(`/reports/${r.id}`, { cookie: buyer.cookie })).status).toBe(200);
    expect((await row(r.id)).seen_at).not.toBeNull();
    // The thumbnail route answers the buyer for the report's measurements only (404 without a file here).
    expect((await api(`/reports/${r.id}/thumbnails/${buyer.m1}`, { cookie: buyer.cookie })).status).toBe(404);

    // The buyer cannot add or read the seller's measurements; the seller cannot confirm.
    expect(
      (
        await api(`${base}/${r.id}/add_measurements`, {
          method: "PATCH",
          token: buyer.token,
          json: { measurement_ids: [buyer.m1] },
        })
      ).status,
    ).toBe(403);
    expect((await api(`/api/web_app/measurements/${seller.m1}`, { token: buyer.token })).status).toBe(404);
    expect((await api(`${base}/${r.id}/confirm`, { method: "PATCH", token: seller.token })).status).toBe(403);

    // A non-admin of the buyer and a third organisation's admin: 404 everywhere.
    const buyerViewer = await createUser(buyer.org.id, { role: "viewer" });
    const viewerToken = await apiToken(buyerViewer.id);
    for (const token of [viewerToken, third.token]) {
      expect((await api(`${base}/${r.id}`, { token })).status).toBe(404);
      expect((await api(`${base}/${r.id}/confirm`, { method: "PATCH", token })).status).toBe(404);
    }
    expect((await api(`/reports/${r.id}`, { cookie: third.cookie })).status).toBe(404);
    expect((await api(base, { token: third.token })).data.data).toEqual([]);

    const confirmed = await api(`${base}/${r.id}/confirm`, { method: "PATCH", token: buyer.token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.confirmed).toBe(true);
    const again = await api(`${base}/${r.id}/confirm`, { method: "PATCH", token: buyer.token });
    expect(again.status).toBe(409);
    // Confirmed: nothing more is added.
    expect(
      (
        await api(`${base}/${r.id}/add_measurements`, {
          method: "PATCH",
          token: seller.token,
          json: { measurement_ids: [seller.m1] },
        })
      ).status,
    ).toBe(409);
  });

  it("a report to nobody: the owner's admins are its audience; the sidebar count follows seen_at", async () => {
    const w = await world();
    const r = await createReport(w);
    await finished(r.id);
    const shell = await api(`/reports?_data=${encodeURIComponent("routes/_app+/_layout")}`, { cookie: w.cookie });
    expect(shell.data.unseenReports).toBe(1);
    await api(`/reports/${r.id}`, { cookie: w.cookie });
    expect(
      (await api(`/reports?_data=${encodeURIComponent("routes/_app+/_layout")}`, { cookie: w.cookie })).data
        .unseenReports,
    ).toBe(0);
    expect((await api(`${base}/${r.id}/confirm`, { method: "PATCH", token: w.token })).status).toBe(200);
  });
});

describe("reports_excel", () => {
  it("the same numbers as the report, read back with exceljs; 404 for a third organisation", async () => {
    const w = await world();
    const r = await createReport(w);
    await api(`${base}/${r.id}/add_measurements`, {
      method: "PATCH",
      token: w.token,
      json: { measurement_ids: [w.m1, w.m2] },
    });
    await finished(r.id);
    const res = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "reports_excel", report_id: r.id },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: w.cookie })).body);
    const logs = wb.getWorksheet("Logs")!;
    const rows = [2, 3, 4].map((n) => [1, 2, 3, 4, 5].map((c) => logs.getRow(n).getCell(c).value));
    expect(rows[0].slice(0, 2)).toEqual([20, 2]);
    expect(rows[0][2] as number).toBeCloseTo(0.28, 9);
    expect(rows[0][3]).toBe("Spruce sawlog");
    expect(rows[1][4]).toBe("Rot");
    expect(rows[2][3]).toBe("Pulpwood");
    const values = wb.getWorksheet("Assortments")!;
    expect(values.getRow(2).getCell(5).value).toBe(14);
    expect(values.getRow(3).getCell(5).value).toBe(12.5);
    expect(values.getRow(4).getCell(5).value).toBe(26.5);
    expect(wb.getWorksheet("Measurements")!.rowCount).toBe(3);

    const third = await world("Third Co");
    const foreign = await api("/api/web_app/excel_exports", {
      token: third.token,
      json: { report_type: "reports_excel", report_id: r.id },
    });
    expect(foreign.status).toBe(404);
  });
});
