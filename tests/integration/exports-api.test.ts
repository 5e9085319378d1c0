import { describe, expect, it } from "vitest";
import {
  apiToken,
  createMeasuredStack,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, hasPoppler, readPdf, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { waitFor } from "#tests/helpers/wait";
import { convertVolume, formatVolume, roundHalfUp, summarizeMeasurement } from "~/domain";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";

async function setup(
  opts: { precision?: number; volumeUnit?: "m^3" | "ft^3"; role?: "admin" | "viewer"; features?: string[] } = {},
) {
  const org = await createOrganization({ name: "Forest Co", features: opts.features });
  const user = await createUser(org.id, { role: opts.role ?? "admin", name: "Mari Mets" });
  await db()
    .updateTable("users")
    .set({ rounding_precision: opts.precision ?? 3, volume_unit: opts.volumeUnit ?? "m^3", time_zone: "UTC" })
    .where("id", "=", user.id)
    .execute();
  const storage = await createStorage(org.id, { name: "Riverside landing" });
  return { org, user, storage, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

const logsOf = (measurementId: number) =>
  db()
    .selectFrom("logs")
    .selectAll()
    .where("measurement_id", "=", measurementId)
    .where("is_deleted", "=", false)
    .orderBy("id")
    .execute();

describe("POST /api/web_app/excel_exports", () => {
  it("log_by_log_excel: every log with the domain's rounded numbers, frozen header, units in headers", async () => {
    const s = await setup({ precision: 3 });
    const a = await createMeasuredStack(s.org.id, s.storage.id, { seed: 3, photo: false, lengthM: 4 });
    const b = await createMeasuredStack(s.org.id, s.storage.id, { seed: 4, photo: false, lengthM: 3 });
    // A deleted log is not exported.
    const first = (await logsOf(a.id))[0];
    await db().updateTable("logs").set({ is_deleted: true }).where("id", "=", first.id).execute();

    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "log_by_log_excel", measurement_ids: [a.id, b.id] },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data).toMatchObject({
      id: expect.any(Number),
      status: 0,
      report_type: "log_by_log_excel",
      user_id: s.user.id,
      url: null,
    });
    const row = await waitForExport(res.data.id);
    expect([row.status, row.status_detail]).toEqual([1, null]);

    const file = await download(res.data.id, { cookie: s.cookie });
    expect(file.res.status).toBe(200);
    expect(file.res.headers.get("content-type")).toContain("spreadsheetml");
    const wb = await readXlsx(file.body);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe("Logs");
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
      "Storage",
      "Measurement ID",
      "Taken",
      "Log no.",
      "Diameter (cm)",
      "Length (m)",
      "Volume (m³)",
      "Assortment",
      "Cull",
    ]);
    const logs = [...(await logsOf(a.id)), ...(await logsOf(b.id))];
    expect(ws.rowCount).toBe(logs.length + 1);
    expect(logs.length).toBe(a.logsCount + b.logsCount - 1);
    logs.forEach((log, i) => {
      const r = ws.getRow(i + 2);
      expect(r.getCell(1).value).toBe("Riverside landing");
      expect(r.getCell(2).value).toBe(log.measurement_id);
      expect(r.getCell(5).value).toBe(roundHalfUp(log.d, 1));
      expect(r.getCell(6).value).toBe(log.measurement_id === a.id ? 4 : 3);
      expect(r.getCell(7).value).toBe(roundHalfUp(log.v, 3));
      expect(r.getCell(7).numFmt).toBe("0.000");
      expect(r.getCell(5).numFmt).toBe("0.0");
    });
    // The volume column adds up to the measurement volumes (the domain's sum), within rounding.
    const sum = logs.reduce((acc, _l, i) => acc + Number(ws.getRow(i + 2).getCell(7).value), 0);
    const domain = summarizeMeasurement(logs.map((l) => ({ d: l.d, v: l.v }))).volume;
    expect(Math.abs(sum - domain)).toBeLessThan(0.0005 * logs.length);
  });

  it("precise_log_by_log_excel: raw values and pixel circles, in the owner's volume unit and language", async () => {
    const s = await setup({ precision: 2, volumeUnit: "ft^3", features: ["precise_log_by_log_excel"] });
    await db().updateTable("users").set({ locale: "et" }).where("id", "=", s.user.id).execute();
    const m = await createMeasuredStack(s.org.id, s.storage.id, { seed: 5, photo: false });
    // Without the paid feature the call is refused and nothing is queued.
    const without = await setup();
    const other = await createMeasuredStack(without.org.id, without.storage.id, { seed: 6, photo: false });
    const refused = await api("/api/web_app/excel_exports", {
      token: without.token,
      json: { report_type: "precise_log_by_log_excel", measurement_id: other.id },
    });
    expect(refused.status).toBe(422);
    expect(refused.data).toMatchObject({ error: "feature_unavailable", feature: "precise_log_by_log_excel" });
    expect(
      await db().selectFrom("exports").select("id").where("organization_id", "=", without.org.id).execute(),
    ).toHaveLength(0);
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "precise_log_by_log_excel", measurement_id: m.id },
    });
    expect(res.status).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { token: s.token })).body);
    const ws = wb.worksheets[0];
    const headers = (ws.getRow(1).values as string[]).slice(1);
    expect(headers).toHaveLength(12);
    expect(headers[6]).toContain("ft³");
    expect(headers[0]).not.toBe("Storage"); // Estonian
    const logs = await logsOf(m.id);
    expect(ws.rowCount).toBe(logs.length + 1);
    logs.forEach((log, i) => {
      const r = ws.getRow(i + 2);
      expect(r.getCell(5).value).toBe(log.d);
      expect(r.getCell(7).value).toBeCloseTo(convertVolume(log.v, "m^3", "ft^3"), 12);
      expect([r.getCell(10).value, r.getCell(11).value, r.getCell(12).value]).toEqual([log.x, log.y, log.r]);
    });
  });

  it("dashboard_excel follows the dashboard's filters (taken_at range, storage_ids)", async () => {
    const s = await setup({ precision: 2 });
    const other = await createStorage(s.org.id, { name: "Hill yard" });
    const inside = await createMeasuredStack(s.org.id, s.storage.id, {
      seed: 8,
      photo: false,
      takenAt: new Date("2026-03-10T10:00:00Z"),
    });
    await createMeasuredStack(s.org.id, s.storage.id, {
      seed: 9,
      photo: false,
      takenAt: new Date("2026-05-01T10:00:00Z"),
    });
    await createMeasuredStack(s.org.id, other.id, {
      seed: 10,
      photo: false,
      takenAt: new Date("2026-03-11T10:00:00Z"),
    });
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: {
        report_type: "dashboard_excel",
        taken_at_start: "01.03.2026",
        taken_at_end: "2026-03-31",
        storage_ids: [s.storage.id],
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: s.cookie })).body);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Storages", "Measurements"]);
    const [storages, measurements] = wb.worksheets;
    expect(storages.rowCount).toBe(2);
    expect(storages.getRow(2).getCell(1).value).toBe("Riverside landing");
    expect(storages.getRow(2).getCell(5).value).toBe(roundHalfUp(inside.volume, 2));
    expect(measurements.rowCount).toBe(2);
    expect(measurements.getRow(2).getCell(1).value).toBe(inside.id);
    expect(measurements.getRow(2).getCell(10).value).toBe(inside.logsCount);
    expect(measurements.getRow(2).getCell(11).value).toBe(roundHalfUp(inside.volume, 2));
    // Dates are real Excel dates (the owner's wall clock, UTC here).
    expect(measurements.getRow(2).getCell(3).value).toEqual(new Date("2026-03-10T10:00:00Z"));
  });

  it("an empty selection answers 422 and changes nothing", async () => {
    const s = await setup();
    const before = await snapshotTables();
    for (const json of [
      { report_type: "log_by_log_excel", measurement_ids: [] },
      { report_type: "log_by_log_excel" },
      { report_type: "no_such_report", measurement_ids: [1] },
      { report_type: "dashboard_excel", storage_ids: [s.storage.id] }, // a storage without measurements
      { report_type: "log_by_log_excel", container_id: 4 },
    ]) {
      const res = await api("/api/web_app/excel_exports", { token: s.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.data.error).toBe("validation_failed");
    }
    const empty = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "log_by_log_excel", measurement_ids: [] },
    });
    expect(empty.data.errors.measurement_ids).toEqual(["exports:errors.emptySelection"]);
    const pdf = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: { report_type: "measurement_pdf", measurement_ids: [] },
    });
    expect(pdf.status).toBe(422);
    expect(pdf.data.errors.measurement_ids).toEqual(["exports:errors.emptySelection"]);
    expect(await snapshotTables()).toEqual(before);
  });

  it("the container types, the last of the spec, are made: without their plan they answer 422 feature_unavailable, and change nothing", async () => {
    const s = await setup();
    const m = await createMeasurement(s.org.id, s.storage.id);
    const before = await snapshotTables();
    for (const [json, feature] of [
      [{ report_type: "container_dashboard_excel" }, "container_measurements"],
      [{ report_type: "container_log_by_log_excel", measurement_ids: [m.id] }, "container_measurements"],
      [{ report_type: "bill_of_lading_invoice_excel", bill_of_lading_id: 1 }, "bill_of_lading_invoice"],
    ] as const) {
      const res = await api("/api/web_app/excel_exports", { token: s.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.data).toEqual({
        error: "feature_unavailable",
        feature,
        errors: { report_type: ["exports:errors.featureUnavailable"] },
      });
    }
    // A name the spec does not have is an unknown type; a PDF type is not an Excel one.
    for (const json of [
      { report_type: "no_such_report", measurement_ids: [m.id] },
      { report_type: "measurement_pdf", measurement_ids: [m.id] },
    ]) {
      const res = await api("/api/web_app/excel_exports", { token: s.token, json });
      expect(res.status).toBe(422);
      expect(res.data.errors).toEqual({ report_type: ["exports:errors.reportType"] });
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("without JavaScript the button's form post redirects back with the toast", async () => {
    const s = await setup();
    const m = await createMeasurement(s.org.id, s.storage.id);
    const ok = await api("/api/web_app/excel_exports", {
      cookie: s.cookie,
      form: { report_type: "log_by_log_excel", measurement_ids: String(m.id), redirectTo: "/measurements/timber" },
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/measurements/timber");
    expect(ok.headers.get("set-cookie")).toContain("toast=");
    expect(await db().selectFrom("exports").select("id").execute()).toHaveLength(1);
    const bad = await api("/api/web_app/excel_exports", {
      cookie: s.cookie,
      form: { report_type: "log_by_log_excel", measurement_ids: "", redirectTo: "/exports" },
    });
    expect(bad.status).toBe(302);
    expect(await db().selectFrom("exports").select("id").execute()).toHaveLength(1);
  });

  it("a storage of another organisation is not found", async () => {
    const s = await setup();
    await createMeasurement(s.org.id, s.storage.id);
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/excel_exports", { token, json: { report_type: "log_by_log_excel", storage_id: s.storage.id } }),
    );
  });
});

describe.skipIf(!hasPoppler())("POST /api/web_app/pdf_exports", () => {
  it("measurement_pdf: the photo with the log overlay, details and logs sheet, one A4 page per measurement", async () => {
    const s = await setup({ precision: 2 });
    const a = await createMeasuredStack(s.org.id, s.storage.id, { seed: 21 });
    const b = await createMeasuredStack(s.org.id, s.storage.id, { seed: 22 });
    const res = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: { report_type: "measurement_pdf", measurement_ids: [a.id, b.id] },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const row = await waitForExport(res.data.id, 90_000);
    expect([row.status, row.status_detail]).toEqual([1, null]);
    const file = await download(res.data.id, { cookie: s.cookie });
    expect(file.res.headers.get("content-type")).toBe("application/pdf");
    const pdf = readPdf(file.body);
    if (process.env.KEEP_PDF) (await import("node:fs")).writeFileSync(process.env.KEEP_PDF, file.body);
    expect(pdf.pages).toBe(2);
    for (const m of [a, b]) {
      expect(pdf.text).toContain(`Measurement #${m.id}`);
      expect(pdf.text).toContain(formatVolume(m.volume, { precision: 2, unit: "m^3", locale: "en-GB" }));
      const logs = await logsOf(m.id);
      // The overlay labels each log with its diameter to one decimal.
      for (const log of logs.slice(0, 5)) expect(pdf.text).toContain(roundHalfUp(log.d, 1).toFixed(1));
    }
    expect(pdf.text).toContain("Riverside landing");
    expect(pdf.text).toContain("Logs sheet");
  });

  it("POST /pdf_exports/{id}: one measurement; without a photo it is partially done", async () => {
    const s = await setup();
    const m = await createMeasuredStack(s.org.id, s.storage.id, { seed: 23, photo: false });
    const res = await api(`/api/web_app/pdf_exports/${m.id}`, {
      token: s.token,
      json: { report_type: "measurement_pdf" },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const row = await waitForExport(res.data.id, 90_000);
    expect(row.status).toBe(2);
    expect(row.status_detail).toContain(`#${m.id}`);
    const pdf = readPdf((await download(res.data.id, { cookie: s.cookie })).body);
    expect(pdf.text).toContain(`Measurement #${m.id}`);
    expect(pdf.text).toContain("This measurement has no photo.");
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/pdf_exports/${m.id}`, { token, json: { report_type: "measurement_pdf" } }),
    );
  });
});

describe("export records", () => {
  async function finishedExport() {
    const s = await setup();
    const m = await createMeasuredStack(s.org.id, s.storage.id, { seed: 31, photo: false });
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "log_by_log_excel", measurement_ids: [m.id] },
    });
    const row = await waitForExport(res.data.id);
    return { ...s, m, row };
  }

  it("lists the organisation's exports only, searchable by name", async () => {
    const s = await finishedExport();
    const other = await finishedExport();
    const list = await api("/api/web_app/excel_exports", { token: s.token });
    expect(list.status).toBe(200);
    expect(list.data.exports.map((e: { id: number }) => e.id)).toEqual([s.row.id]);
    expect(list.data.exports[0]).toMatchObject({
      status: 1,
      url: `/exports/${s.row.id}/download`,
      report_type: "log_by_log_excel",
    });
    expect((await api("/api/web_app/pdf_exports", { token: s.token })).data.exports).toEqual([]);
    expect((await api("/api/web_app/excel_exports?q=zzz", { token: s.token })).data.exports).toEqual([]);
    expect((await api("/api/web_app/excel_exports?q=log", { token: s.token })).data.exports).toHaveLength(1);
    expect(
      (await api("/api/web_app/excel_exports", { token: other.token })).data.exports.map((e: { id: number }) => e.id),
    ).toEqual([other.row.id]);
    // The screen names the type from the registry, and does not leak either.
    expect((await api("/exports", { cookie: s.cookie })).data).toContain("Log by log · Excel");
    const page = await api("/exports", { cookie: other.cookie });
    expect(page.status).toBe(200);
    expect(page.data).toContain(`export-${other.row.id}`);
    expect(page.data).not.toContain(`export-${s.row.id}"`);
  });

  it("every id route answers 404 to another organisation, the download included", async () => {
    const s = await finishedExport();
    await expectOutsiderGets404(({ token }) => api(`/exports/${s.row.id}/download`, { token }));
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/excel_exports/${s.row.id}`, { token }));
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/excel_exports/${s.row.id}`, { token, method: "DELETE" }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/pdf_exports/${s.row.id}`, { token, method: "DELETE" }),
    );
    // An Excel export is not a PDF export.
    expect((await api(`/api/web_app/pdf_exports/${s.row.id}`, { token: s.token, method: "DELETE" })).status).toBe(404);
  });

  it("DELETE removes the row and its file; a member who is not the owner may not", async () => {
    const s = await finishedExport();
    const viewer = await createUser(s.org.id, { role: "viewer" });
    const forbidden = await api(`/api/web_app/excel_exports/${s.row.id}`, {
      token: await apiToken(viewer.id),
      method: "DELETE",
    });
    expect(forbidden.status).toBe(403);
    expect(await fileStorage().stat(s.row.file_key!)).not.toBeNull();
    const res = await api(`/api/web_app/excel_exports/${s.row.id}`, { token: s.token, method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await db().selectFrom("exports").select("id").where("id", "=", s.row.id).executeTakeFirst()).toBeUndefined();
    expect(await fileStorage().stat(s.row.file_key!)).toBeNull();
    expect((await download(s.row.id, { cookie: s.cookie })).res.status).toBe(404);
  });

  it("the /exports screen deletes after confirmation, without JavaScript", async () => {
    const s = await finishedExport();
    const confirm = await api(`/exports?confirm=${s.row.id}`, { cookie: s.cookie });
    expect(confirm.data).toContain('data-testid="delete-confirmation"');
    const res = await api("/exports", {
      cookie: s.cookie,
      form: { intent: "delete", id: String(s.row.id), query: `?confirm=${s.row.id}` },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/exports");
    expect(await db().selectFrom("exports").select("id").execute()).toEqual([]);
    expect((await api("/exports", { cookie: s.cookie, form: { intent: "nope" } })).status).toBe(400);
  });

  it("a measurement deleted after the request is left out: partially done, saying which", async () => {
    const s = await setup();
    const a = await createMeasuredStack(s.org.id, s.storage.id, { seed: 41, photo: false });
    const b = await createMeasuredStack(s.org.id, s.storage.id, { seed: 42, photo: false });
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "log_by_log_excel", measurement_ids: [a.id, b.id, 999999] },
    });
    expect(res.status).toBe(201);
    const row = await waitForExport(res.data.id);
    expect(row.status).toBe(2);
    expect(row.status_detail).toContain("#999999");
    const ws = (await readXlsx((await download(res.data.id, { cookie: s.cookie })).body)).worksheets[0];
    expect(ws.rowCount).toBe(a.logsCount + b.logsCount + 1);
    const page = await api("/exports", { cookie: s.cookie });
    expect(page.data).toContain('data-testid="partial-warning"');
  });

  it("the sweep re-enqueues an export whose job was lost", async () => {
    const s = await setup();
    const m = await createMeasuredStack(s.org.id, s.storage.id, { seed: 51, photo: false });
    const r = await db()
      .insertInto("exports")
      .values({
        organization_id: s.org.id,
        user_id: s.user.id,
        kind: "excel",
        report_type: "log_by_log_excel",
        name: "Lost",
        params: JSON.stringify({ measurement_ids: [m.id] }),
        status: 0,
        heartbeat_at: new Date(Date.now() - 3600_000),
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    await addJob("sweep_pending", {}, { jobKey: "sweep_pending:exports-test" });
    const row = await waitForExport(id);
    expect(row.status).toBe(1);
    expect(row.attempts).toBe(1);
    await waitFor(async () => (await fileStorage().stat(row.file_key!)) !== null, { what: "the swept export's file" });
  });
});
