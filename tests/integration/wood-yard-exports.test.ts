import { describe, expect, it } from "vitest";
import {
  apiToken,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { woodYardSummary } from "~/domain";
import { timberSummary } from "~/models/timber-summary.server";
import { woodYardLookups } from "~/models/wood-yard.server";
import { db } from "~/utils/db.server";
import { convertToCsv } from "../helpers/soffice";

// Issue 26: the wood-yard exports of one storage (features wood_yard_log_excel and
// wood_yard_summary_excel). A storage with known logs across a month boundary in the owner's
// time zone: every cell of both files is checked against the worked figures and the domain's.

const FEATURES = ["wood_yard_log_excel", "wood_yard_summary_excel"];

async function setup(features = FEATURES) {
  const org = await createOrganization({ name: "Yard Co", features });
  await db().updateTable("organizations").set({ currency: "EUR" }).where("id", "=", org.id).execute();
  const user = await createUser(org.id, { role: "admin" });
  await db()
    .updateTable("users")
    .set({ rounding_precision: 3, volume_unit: "m^3", time_zone: "Europe/Tallinn", locale: "en" })
    .where("id", "=", user.id)
    .execute();
  const storage = await createStorage(org.id, { name: "North yard" });
  return { org, user, storage, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

async function world(orgId: number, storageId: number) {
  const insert = async (table: "assortments" | "culls", values: Record<string, unknown>) =>
    Number(
      (
        await db()
          .insertInto(table)
          .values({ organization_id: orgId, ...values } as never)
          .executeTakeFirstOrThrow()
      ).insertId,
    );
  // Sawlog by diameter range, 60.00 per m³; pulp by the log's own choice, 1.50 per log.
  const sawlog = await insert("assortments", {
    name: "Spruce sawlog",
    min_diameter: 20,
    max_diameter: 40,
    price_cents: 6000,
  });
  const pulp = await insert("assortments", { name: "Pine pulp", price_per_log_cents: 150 });
  const rot = await insert("culls", { reason: "Rot" });
  const measurement = async (takenAt: Date, logs: Array<Record<string, unknown>>, storage = storageId) => {
    const m = await createMeasurement(orgId, storage, { takenAt });
    await db()
      .updateTable("measurements")
      .set({ volume_formula: "cylinder", log_length: 3, wood_type_id: 1, logs_count: logs.length })
      .where("id", "=", m.id)
      .execute();
    for (const l of logs)
      await db()
        .insertInto("logs")
        .values({ organization_id: orgId, measurement_id: m.id, x: 10, y: 10, r: 5, ...l } as never)
        .execute();
    return m.id;
  };
  // October (Tallinn): a range sawlog, an explicit pulp log, a culled log, one fitting nothing, a deleted one.
  const oct = await measurement(new Date(Date.UTC(2026, 9, 10, 9)), [
    { d: 25, v: 0.15 },
    { d: 18, v: 0.08, assortment_id: pulp },
    { d: 30, v: 0.2, cull_id: rot },
    { d: 50, v: 0.6 },
    { d: 26, v: 0.16, is_deleted: true },
  ]);
  // 31 Oct 23:30 UTC is 1 Nov 01:30 in Tallinn: November.
  const nov = await measurement(new Date(Date.UTC(2026, 9, 31, 23, 30)), [
    { d: 22.04, v: 0.12 },
    { d: 35, v: 0.3 },
  ]);
  // Neither a deleted measurement nor another storage's counts.
  const gone = await measurement(new Date(Date.UTC(2026, 9, 12)), [{ d: 25, v: 5 }]);
  await db().updateTable("measurements").set({ deleted_at: new Date() }).where("id", "=", gone).execute();
  const other = await createStorage(orgId, { name: "South yard" });
  await measurement(new Date(Date.UTC(2026, 9, 12)), [{ d: 25, v: 7 }], other.id);
  return { oct, nov, sawlog, pulp, rot };
}

async function makeExport(s: Awaited<ReturnType<typeof setup>>, reportType: string) {
  const res = await api("/api/web_app/excel_exports", {
    token: s.token,
    json: { report_type: reportType, storage_id: s.storage.id },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  const row = await waitForExport(res.data.id);
  expect([row.status, row.status_detail, row.report_type]).toEqual([1, null, reportType]);
  const file = (await download(res.data.id, { cookie: s.cookie })).body;
  return { file, wb: await readXlsx(file) };
}

const cells = (row: { values: unknown }) => (row.values as unknown[]).slice(1);

describe("wood-yard exports", () => {
  it("the log export lists every live log of the storage with the screen's assortment and cull", async () => {
    const s = await setup();
    const w = await world(s.org.id, s.storage.id);
    const { wb } = await makeExport(s, "wood_yard_log_excel");
    const sheet = wb.worksheets[0];
    expect(cells(sheet.getRow(1))).toEqual([
      "Storage",
      "Measurement ID",
      "Taken",
      "Measured",
      "Log no.",
      "Wood species",
      "Assortment",
      "Cull",
      "Diameter (cm)",
      "Length (m)",
      "Volume (m³)",
    ]);
    const rows = [2, 3, 4, 5, 6, 7].map((r) => cells(sheet.getRow(r)));
    expect(sheet.rowCount).toBe(7);
    // Taken is the owner's wall clock (Tallinn, UTC+3 in October, +2 in November).
    expect(rows[0][2]).toEqual(new Date(Date.UTC(2026, 9, 10, 12)));
    expect(rows[4][2]).toEqual(new Date(Date.UTC(2026, 10, 1, 1, 30)));
    const species = rows[0][5];
    expect(typeof species).toBe("string");
    expect(rows.map((r) => [r[0], r[1], r[4], r[6] ?? null, r[7] ?? null, r[8], r[9], r[10]])).toEqual([
      ["North yard", w.oct, 1, "Spruce sawlog", null, 25, 3, 0.15],
      ["North yard", w.oct, 2, "Pine pulp", null, 18, 3, 0.08],
      ["North yard", w.oct, 3, null, "Rot", 30, 3, 0.2],
      ["North yard", w.oct, 4, null, null, 50, 3, 0.6],
      ["North yard", w.nov, 1, "Spruce sawlog", null, 22, 3, 0.12],
      ["North yard", w.nov, 2, "Spruce sawlog", null, 35, 3, 0.3],
    ]);
  });

  it("the summary adds up per month and assortment what each measurement's screen shows", async () => {
    const s = await setup();
    const w = await world(s.org.id, s.storage.id);
    const { wb, file } = await makeExport(s, "wood_yard_summary_excel");
    const sheet = wb.worksheets[0];
    expect(sheet.name).toBe("Summary");
    expect(cells(sheet.getRow(1))).toEqual(["Month", "Assortment", "Logs", "Volume (m³)", "Value (EUR)"]);
    const rows = [2, 3, 4, 5, 6, 7].map((r) => cells(sheet.getRow(r)));
    expect(sheet.rowCount).toBe(7);
    // Assortments by name, as the master data lists them. Worked: October sawlog 0.15 m³ × 60.00 = 9.00; pulp 1 log × 1.50; 0.6 m³ fits nothing; 0.2 m³ culled.
    // November (Tallinn): sawlog 0.12 + 0.3 = 0.42 m³ × 60.00 = 25.20.
    expect(rows).toEqual([
      ["2026-10", "Pine pulp", 1, 0.08, 1.5],
      ["2026-10", "Spruce sawlog", 1, 0.15, 9],
      ["2026-10", "Without assortment", 1, 0.6, 0],
      ["2026-10", "Culled logs", 1, 0.2, 0],
      ["2026-11", "Spruce sawlog", 2, 0.42, 25.2],
      ["Total", undefined, 6, 1.45, 35.7],
    ]);

    // The domain's figures: each measurement summarised as its detail screen does.
    const lookups = await woodYardLookups(db(), { organizationId: s.org.id });
    const screen = async (id: number) => {
      const m = await db().selectFrom("measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const logs = await db().selectFrom("logs").selectAll().where("measurement_id", "=", id).execute();
      return timberSummary(m, logs, lookups);
    };
    const [oct, nov] = [await screen(w.oct), await screen(w.nov)];
    expect(oct.byAssortment.find((a) => a.assortmentId === w.sawlog)?.valueCents).toBe(900);
    expect(oct.byAssortment.find((a) => a.assortmentId === w.pulp)?.valueCents).toBe(150);
    expect(oct.culledVolume).toBeCloseTo(0.2, 9);
    const domain = woodYardSummary(
      [
        {
          month: "2026-10",
          byAssortment: oct.byAssortment,
          culled: { count: oct.culledCount, volume: oct.culledVolume },
        },
        {
          month: "2026-11",
          byAssortment: nov.byAssortment,
          culled: { count: nov.culledCount, volume: nov.culledVolume },
        },
      ],
      lookups.assortments.map((a) => a.id),
    );
    expect(domain.map((r) => [r.count, +r.volume.toFixed(3), r.valueCents / 100])).toEqual(
      rows.slice(0, 5).map((r) => [r[2], r[3], r[4]]),
    );

    // LibreOffice shows the same figures, in the cells' number formats.
    const csv = convertToCsv(file, "xlsx");
    expect(csv.split("\n")[2]).toBe("2026-10,Spruce sawlog,1,0.150,9.00");
    expect(csv).toContain("Total,,6,1.450,35.70");
  });

  it("each type needs its own feature: 422 in the API, the button hidden on the dashboard", async () => {
    const none = await setup([]);
    await createMeasurement(none.org.id, none.storage.id);
    for (const reportType of FEATURES) {
      const res = await api("/api/web_app/excel_exports", {
        token: none.token,
        json: { report_type: reportType, storage_id: none.storage.id },
      });
      expect(res.status, reportType).toBe(422);
      expect(res.data).toMatchObject({ error: "feature_unavailable", feature: reportType });
    }
    const page = await api(`/measurements/timber?open=${none.storage.id}`, { cookie: none.cookie });
    expect(page.status).toBe(200);
    expect(page.data).toContain(`storage-menu-${none.storage.id}`);
    expect(page.data).not.toContain("export-button-wood_yard");

    // One flag shows its own button only.
    const one = await setup(["wood_yard_summary_excel"]);
    await createMeasurement(one.org.id, one.storage.id);
    const onePage = await api(`/measurements/timber?open=${one.storage.id}`, { cookie: one.cookie });
    expect(onePage.data).toContain("export-button-wood_yard_summary_excel");
    expect(onePage.data).not.toContain("export-button-wood_yard_log_excel");
    const refused = await api("/api/web_app/excel_exports", {
      token: one.token,
      json: { report_type: "wood_yard_log_excel", storage_id: one.storage.id },
    });
    expect(refused.status).toBe(422);
    expect(await db().selectFrom("exports").select("id").execute()).toHaveLength(0);
  });

  it("works as a plain form post, refuses other selections and other organisations' storages", async () => {
    const s = await setup();
    await world(s.org.id, s.storage.id);
    const form = await api("/api/web_app/excel_exports", {
      cookie: s.cookie,
      form: {
        report_type: "wood_yard_log_excel",
        storage_id: String(s.storage.id),
        redirectTo: "/measurements/timber",
      },
    });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe("/measurements/timber");
    const [row] = await db().selectFrom("exports").selectAll().execute();
    expect(row.report_type).toBe("wood_yard_log_excel");
    expect(row.name).toMatch(/^Wood-yard logs/);

    const noStorage = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "wood_yard_summary_excel" },
    });
    expect(noStorage.status).toBe(422);
    expect(noStorage.data.errors.storage_id).toEqual(["exports:errors.emptySelection"]);
    const ids = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "wood_yard_summary_excel", storage_id: s.storage.id, measurement_ids: [1] },
    });
    expect(ids.status).toBe(422);
    expect(ids.data.errors.measurement_ids).toEqual(["exports:errors.unsupportedSelection"]);

    const other = await setup();
    const foreign = await api("/api/web_app/excel_exports", {
      token: other.token,
      json: { report_type: "wood_yard_log_excel", storage_id: s.storage.id },
    });
    expect(foreign.status).toBe(404);
    // A storage without measurements selects nothing.
    const empty = await api("/api/web_app/excel_exports", {
      token: other.token,
      json: { report_type: "wood_yard_log_excel", storage_id: other.storage.id },
    });
    expect(empty.status).toBe(422);
  });
});
