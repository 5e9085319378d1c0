import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createStorage, createUser, webCookie } from "#tests/factories";
import { download, hasPoppler, readPdf, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { waitFor } from "#tests/helpers/wait";
import { reportInvoiceLines } from "~/domain";
import { db } from "~/utils/db.server";
import { convertToCsv } from "../helpers/soffice";

// Issue 26: the report's files (docs/decisions/026): PDF, invoice (bill_of_lading_invoice),
// tally sheet, log-by-log and the igl delivery sheet (igl_excel). The hand-calculated delivery of
// app/domain/report.test.ts under JAS: sawlog 2 logs 0.28 m³ = 14.00, pulpwood 1 log 12.50 per log
// (0.36 m³), one culled log 0.2304 m³; total 4 logs, 0.8704 m³, 26.50.

const FEATURES = ["reports", "bill_of_lading_invoice", "igl_excel"];

async function world(features = FEATURES) {
  const org = await createOrganization({ name: "Seller Co", features });
  await db()
    .updateTable("organizations")
    .set({ currency: "EUR", vat_code: "EE100200300", address: "Forest road 1" })
    .where("id", "=", org.id)
    .execute();
  const admin = await createUser(org.id, { role: "admin" });
  await db().updateTable("users").set({ locale: "en", time_zone: "UTC" }).where("id", "=", admin.id).execute();
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
    logLength: number,
    assortmentId: number | null,
    logs: Array<{ d: number; assortment_id?: number | null; cull_id?: number | null; is_deleted?: boolean }>,
  ) => {
    const mid = await id(
      db()
        .insertInto("measurements")
        .values({
          organization_id: org.id,
          storage_id: storage.id,
          taken_at: new Date(Date.UTC(2026, 10, 20, 9)),
          log_length: logLength,
          assortment_id: assortmentId,
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
  const m1 = await measurement(4, sawlog, [
    { d: 20.4 },
    { d: 30, assortment_id: pulp },
    { d: 25, cull_id: rot },
    { d: 50, is_deleted: true },
  ]);
  const m2 = await measurement(3, null, [{ d: 20.9, assortment_id: sawlog }]);
  const token = await apiToken(admin.id);
  const created = await api("/api/web_app/reports", {
    token,
    json: { name: "November delivery", volume_formula: "jas", volume_unit: "m^3", reported_at: "2026-11-27" },
  });
  expect(created.status, JSON.stringify(created.data)).toBe(201);
  const reportId = created.data.id as number;
  await api(`/api/web_app/reports/${reportId}/add_measurements`, {
    method: "PATCH",
    token,
    json: { measurement_ids: [m1, m2] },
  });
  await waitFor(
    async () => {
      const r = await db().selectFrom("reports").selectAll().where("id", "=", reportId).executeTakeFirstOrThrow();
      return r.generating_in_progress ? null : r;
    },
    { timeoutMs: 30_000, what: `report ${reportId}` },
  );
  return { org, admin, token, cookie: await webCookie(admin.id), reportId, m1, m2, storage };
}

type World = Awaited<ReturnType<typeof world>>;

async function make(w: World, kind: "excel" | "pdf", reportType: string, extra: Record<string, unknown> = {}) {
  const res = await api(`/api/web_app/${kind}_exports`, {
    token: w.token,
    json: { report_type: reportType, report_id: w.reportId, ...extra },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  const row = await waitForExport(res.data.id, 90_000);
  expect([row.status, row.status_detail, row.report_type]).toEqual([1, null, reportType]);
  return (await download(res.data.id, { cookie: w.cookie })).body;
}

const cells = (row: { values: unknown }) => (row.values as unknown[]).slice(1);

describe("report exports", () => {
  it("makes all five files with the report's numbers; the page shows their buttons", async () => {
    const w = await world();
    const screen = await api(`/reports/${w.reportId}`, { cookie: w.cookie });
    expect(screen.status).toBe(200);
    for (const type of [
      "reports_excel",
      "report_pdf",
      "report_log_by_log_excel",
      "report_tally_sheet_excel",
      "report_invoice_excel",
      "igl_excel",
    ])
      expect(screen.data, type).toContain(`export-button-${type}`);
    // The screen's total value and volume (4 decimals).
    expect(screen.data).toMatch(/data-testid="report-total-value"[^>]*>26\.50 EUR/);
    expect(screen.data).toMatch(/data-testid="report-total-volume"[^>]*>0\.8704/);

    // Log by log: 4 live logs, their volumes add up to the report's total.
    const lbl = await readXlsx(await make(w, "excel", "report_log_by_log_excel"));
    const logs = lbl.worksheets[0];
    expect(logs.rowCount).toBe(5);
    const rows = [2, 3, 4, 5].map((r) => cells(logs.getRow(r)));
    expect(rows.map((r) => [r[0], r[3], r[4], r[5], r[6], r[8] ?? null, r[9] ?? null])).toEqual([
      [w.m1, 1, 20.4, 20, 4, "Spruce sawlog", null],
      [w.m1, 2, 30, 30, 4, "Pulpwood", null],
      [w.m1, 3, 25, 25, 4, null, "Rot"],
      [w.m2, 1, 20.9, 20, 3, "Spruce sawlog", null],
    ]);
    expect(rows.reduce((s, r) => s + (r[7] as number), 0)).toBeCloseTo(0.8704, 10);

    // Tally sheet in the report's formula (JAS): scaling diameters 20, 30, 24, 20; subtotals; total.
    const tallyFile = await make(w, "excel", "report_tally_sheet_excel");
    const tally = (await readXlsx(tallyFile)).worksheets[0];
    const tallyRows = Array.from({ length: tally.rowCount - 1 }, (_, i) => cells(tally.getRow(i + 2)));
    expect(tallyRows.map((r) => [r[0] ?? null, r[1] ?? null, r[5] ?? null, r[7]])).toEqual([
      [w.m1, "North landing", 20, 1],
      [w.m1, "North landing", 30, 1],
      [w.m1, "North landing", 24, 1],
      [w.m1, "Subtotal", null, 3],
      [w.m2, "North landing", 20, 1],
      [w.m2, "Subtotal", null, 1],
      [null, "Total", null, 4],
    ]);
    expect(tallyRows[6][8] as number).toBeCloseTo(0.8704, 10);
    const tallyCsv = (await convertToCsv(tallyFile, "xlsx")).split("\n");
    expect(tallyCsv[0]).toContain("Scaling diameter (cm)");
    expect(tallyCsv[7]).toBe(",Total,,,,,,4,0.8704,,");

    // Invoice: lines per assortment, the report's values, net total = the report's total value.
    const invoiceFile = await make(w, "excel", "report_invoice_excel");
    const invoice = (await readXlsx(invoiceFile)).worksheets[0];
    const text = (r: number) => cells(invoice.getRow(r));
    const all = Array.from({ length: invoice.rowCount }, (_, i) => text(i + 1));
    expect(all[0][0]).toBe("Invoice");
    expect(all.find((r) => r[0] === "Invoice number")?.[1]).toBe(`R-${w.reportId}`);
    expect(all.find((r) => r[0] === "VAT code")?.[1]).toBe("EE100200300");
    expect(all.find((r) => r[0] === "Seller")?.[1]).toBe("Seller Co");
    const sawlogLine = all.find((r) => r[0] === "Spruce sawlog")!;
    expect([sawlogLine[1], sawlogLine[3], sawlogLine[4], sawlogLine[5]]).toEqual([2, "m³", 50, 14]);
    expect(sawlogLine[2] as number).toBeCloseTo(0.28, 10);
    const pulpLine = all.find((r) => r[0] === "Pulpwood")!;
    expect([pulpLine[1], pulpLine[2], pulpLine[3], pulpLine[4], pulpLine[5]]).toEqual([1, 1, "log", 12.5, 12.5]);
    expect(all.find((r) => r[0] === "Total excl. VAT")?.[5]).toBe(26.5);
    expect(all.at(-1)?.[0]).toBe("Not invoiced: 1 logs without assortment or culled.");
    const report = await db().selectFrom("reports").selectAll().where("id", "=", w.reportId).executeTakeFirstOrThrow();
    expect(reportInvoiceLines(report.details!, "m^3").net).toBe(report.details!.totals.value);
    expect(await convertToCsv(invoiceFile, "xlsx")).toContain("Total excl. VAT,,,,,26.50\n");

    // igl: per-assortment blocks, culls, the report's total.
    const igl = (await readXlsx(await make(w, "excel", "igl_excel"))).worksheets[0];
    const iglRows = Array.from({ length: igl.rowCount }, (_, i) => cells(igl.getRow(i + 1)));
    const start = iglRows.findIndex((r) => r[0] === "Assortment");
    expect(iglRows.slice(start + 1).map((r) => [r[0] ?? null, r[1] ?? null, r[2] ?? null, r[4] ?? null])).toEqual([
      ["Spruce sawlog", null, null, null],
      [null, 20, 2, null],
      ["Subtotal", null, 2, 14],
      ["Pulpwood", null, null, null],
      [null, 30, 1, null],
      ["Subtotal", null, 1, 12.5],
      ["Cull: Rot", null, null, null],
      [null, 25, 1, null],
      ["Subtotal", null, 1, null],
      ["Total", null, 4, 26.5],
    ]);
    expect(iglRows[iglRows.length - 1][3] as number).toBeCloseTo(0.8704, 10);

    // PDF: the report's name, tallies and total value in text, no empty page.
    const pdf = await make(w, "pdf", "report_pdf");
    if (hasPoppler()) {
      const { text, pages } = readPdf(pdf);
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(text).toContain("November delivery");
      expect(text).toContain("Spruce sawlog");
      expect(text).toContain("26.50 EUR");
      expect(text).toContain("0.8704");
      expect(text).toContain(`Measurement ${w.m1}`);
      for (const page of text.split("\f").filter((_, i, a) => i < a.length - 1)) expect(page.trim()).not.toBe("");
    }
  }, 240_000);

  it("the tally sheet in JAS for a cylinder report", async () => {
    const w = await world();
    await db().updateTable("reports").set({ volume_formula: "cylinder" }).where("id", "=", w.reportId).execute();
    const tally = (await readXlsx(await make(w, "excel", "report_tally_sheet_excel", { tally_formula: "jas" })))
      .worksheets[0];
    const total = cells(tally.getRow(tally.rowCount));
    expect(total[1]).toBe("Total");
    expect(total[8] as number).toBeCloseTo(0.8704, 10);
    const bad = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "report_tally_sheet_excel", report_id: w.reportId, tally_formula: "huber" },
    });
    expect(bad.status).toBe(422);
  }, 120_000);

  it("entitlements, tenancy, viewers and plain form posts", async () => {
    const w = await world(["reports"]);
    for (const [type, feature] of [
      ["report_invoice_excel", "bill_of_lading_invoice"],
      ["igl_excel", "igl_excel"],
    ]) {
      const res = await api("/api/web_app/excel_exports", {
        token: w.token,
        json: { report_type: type, report_id: w.reportId },
      });
      expect(res.status, type).toBe(422);
      expect(res.data).toMatchObject({ error: "feature_unavailable", feature });
    }
    const page = await api(`/reports/${w.reportId}`, { cookie: w.cookie });
    expect(page.data).toContain("export-button-report_pdf");
    expect(page.data).not.toContain("export-button-report_invoice_excel");
    expect(page.data).not.toContain("export-button-igl_excel");

    // Another organisation's report: 404.
    const other = await world();
    for (const [kind, type] of [
      ["excel", "report_log_by_log_excel"],
      ["pdf", "report_pdf"],
      ["excel", "report_invoice_excel"],
    ]) {
      const res = await api(`/api/web_app/${kind}_exports`, {
        token: other.token,
        json: { report_type: type, report_id: w.reportId },
      });
      expect(res.status, type).toBe(404);
    }
    // A viewer of the owner organisation: 403, as every report call.
    const viewer = await createUser(w.org.id, { role: "viewer" });
    const refused = await api("/api/web_app/excel_exports", {
      token: await apiToken(viewer.id),
      json: { report_type: "report_tally_sheet_excel", report_id: w.reportId },
    });
    expect(refused.status).toBe(403);
    // No report id: 422.
    const none = await api("/api/web_app/pdf_exports", { token: w.token, json: { report_type: "report_pdf" } });
    expect(none.status).toBe(422);
    expect(none.data.errors.report_id).toEqual(["exports:errors.emptySelection"]);
    expect(await db().selectFrom("exports").select("id").where("organization_id", "=", w.org.id).execute()).toEqual([]);

    // Without JavaScript the buttons are form posts answered by a redirect back.
    const form = await api("/api/web_app/excel_exports", {
      cookie: w.cookie,
      form: {
        report_type: "report_tally_sheet_excel",
        report_id: String(w.reportId),
        tally_formula: "jas",
        redirectTo: `/reports/${w.reportId}`,
      },
    });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe(`/reports/${w.reportId}`);
    const [row] = await db().selectFrom("exports").selectAll().where("organization_id", "=", w.org.id).execute();
    expect(row.report_type).toBe("report_tally_sheet_excel");
    expect(row.params).toMatchObject({ report_id: w.reportId, tally_formula: "jas" });
  }, 120_000);
});
