import { sql } from "kysely";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { seedDemo } from "#db/seed/demo";
import { DEMO_MIXED_STACK_NAME, seedMixedStack } from "#db/seed/mixed-stack";
import {
  apiToken,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api, baseUrl } from "#tests/helpers/http";
import { getMixedStackReport } from "~/models/mixed-stack-report.server";
import { publicLinkOf, rotatePublicLink, deletePublicLink } from "~/models/public-link.server";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

// Mixed stack reports (issue 18, docs/decisions/020-mixed-stack-reports.md): every call with its
// success, 422, viewer and feature answers; the figures against a hand calculation; the public
// page and JSON (exactly the report, nothing after rotation or stop); the screens' form posts and
// the timber dashboard's bulk attach.

const FEATURE = "mixed_stack_reports";

async function world(opts: { features?: string[] } = {}) {
  const marker = `m${Math.random().toString(36).slice(2, 9)}`;
  const org = await createOrganization({ name: `Forest ${marker}`, features: opts.features ?? [FEATURE] });
  const admin = await createUser(org.id, { role: "admin", email: `admin-${marker}@example.test` });
  const viewer = await createUser(org.id, { role: "viewer" });
  const storage = await createStorage(org.id, { name: `Yard ${marker}` });
  // Close up: logs 12.6, 15.9, 22.0, 31.3 cm and a deleted 50 cm one (see app/domain/mixed-stack.test.ts).
  const closeUp = await createMeasurement(org.id, storage.id);
  await db()
    .insertInto("logs")
    .values(
      [12.6, 15.9, 22, 31.3, 50].map((d, i) => ({
        organization_id: org.id,
        measurement_id: closeUp.id,
        x: 10 * i,
        y: 10,
        r: 5,
        d,
        v: 0.1,
        is_deleted: d === 50,
      })),
    )
    .execute();
  await db()
    .updateTable("measurements")
    .set({ logs_count: 4, comment: `Comment ${marker}` })
    .where("id", "=", closeUp.id)
    .execute();
  const farAway = await createMeasurement(org.id, storage.id, { volume: 12.5 });
  const other = await createMeasurement(org.id, storage.id, { volume: 99 });
  return {
    marker,
    org,
    storage,
    closeUp,
    farAway,
    other,
    token: await apiToken(admin.id),
    cookie: await webCookie(admin.id),
    viewerToken: await apiToken(viewer.id),
  };
}

type World = Awaited<ReturnType<typeof world>>;

async function createReport(w: World, name = "Delivery 17") {
  const r = await api("/api/web_app/mixed_stack_reports", { token: w.token, form: { name } });
  expect(r.status, JSON.stringify(r.data)).toBe(201);
  return r.data as { id: number; public_token: string; updated_at: string };
}

const base = "/api/web_app/mixed_stack_reports";

describe("mixed stack reports API", () => {
  it("creates from form data (a default name when empty), lists and reads", async () => {
    const w = await world();
    const named = await createReport(w, "Delivery 17");
    const unnamed = await api(base, { token: w.token, form: { name: "" } });
    expect(unnamed.status).toBe(201);
    expect(unnamed.data.name).toMatch(/^Mixed stack report \d\d\.\d\d\.\d{4}$/);
    expect(typeof named.public_token).toBe("string");
    const list = await api(base, { token: w.token });
    expect(list.status).toBe(200);
    expect(list.data.data.map((r: { id: number }) => r.id).sort()).toEqual([named.id, unnamed.data.id].sort());
    const one = await api(`${base}/${named.id}`, { token: w.token });
    expect(one.data).toMatchObject({
      id: named.id,
      name: "Delivery 17",
      total_delivery_tons: null,
      log_count: 0,
      average_jas: null,
      measurements_data: { close_up: [], far_away: [] },
    });
  });

  it("figures: attach both categories, edit tons, match the hand calculation; updated_at moves on every edit", async () => {
    const w = await world();
    const report = await createReport(w);
    const add = await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "close_up", measurement_ids: [w.closeUp.id] },
    });
    expect(add.status, JSON.stringify(add.data)).toBe(200);
    expect(new Date(add.data.updated_at).getTime()).toBeGreaterThan(new Date(report.updated_at).getTime());
    await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "far_away", measurement_ids: [w.farAway.id] },
    });
    const patched = await api(`${base}/${report.id}`, {
      method: "PATCH",
      token: w.token,
      form: { name: "Delivery 18", total_delivery_tons: "10.75" },
    });
    expect(patched.status, JSON.stringify(patched.data)).toBe(200);
    expect(new Date(patched.data.updated_at).getTime()).toBeGreaterThan(new Date(add.data.updated_at).getTime());
    // Average (12.6 + 15.9 + 22 + 31.3) / 4 = 20.45 -> 20.5; JAS 12, 14, 22, 30 -> 19.5;
    // 10.75 t / 12.5 m³ = 0.86 t/m³; 12.5 / 10.75 = 1.163 m³/t.
    expect(patched.data).toMatchObject({
      name: "Delivery 18",
      total_delivery_tons: 10.75,
      log_count: 4,
      min_diameter: 12.6,
      max_diameter: 31.3,
      average_diameter: 20.5,
      average_jas: 19.5,
      far_away_volume: 12.5,
      tons_per_m3: 0.86,
      m3_per_ton: 1.163,
    });
    expect(patched.data.measurements_data.close_up).toEqual([
      { id: w.closeUp.id, photo_thumbnail: null, log_count: 4, taken_at: expect.any(String), volume: 1.5 },
    ]);
    expect(patched.data.measurements_data.far_away.map((m: { id: number }) => m.id)).toEqual([w.farAway.id]);

    // Attaching again moves a measurement to the other category; removing detaches it.
    const moved = await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "far_away", measurement_ids: [w.closeUp.id] },
    });
    expect(moved.data.log_count).toBe(0);
    expect(moved.data.measurements_data.far_away).toHaveLength(2);
    const removed = await api(`${base}/${report.id}/remove_measurements`, {
      token: w.token,
      json: { measurement_ids: [w.closeUp.id] },
    });
    expect(removed.status).toBe(200);
    expect(removed.data.measurements_data.far_away.map((m: { id: number }) => m.id)).toEqual([w.farAway.id]);
    expect(new Date(removed.data.updated_at).getTime()).toBeGreaterThan(new Date(moved.data.updated_at).getTime());
  });

  it("bad input is 422 beside its field, and nothing changes", async () => {
    const w = await world();
    const report = await createReport(w);
    const before = await snapshotTables();
    const cases: Array<[string, Parameters<typeof api>[1], string]> = [
      [`${base}/${report.id}`, { method: "PATCH", form: { total_delivery_tons: "abc" } }, "total_delivery_tons"],
      [`${base}/${report.id}`, { method: "PATCH", form: { total_delivery_tons: "1.234" } }, "total_delivery_tons"],
      [`${base}/${report.id}`, { method: "PATCH", json: { total_delivery_tons: -1 } }, "total_delivery_tons"],
      [`${base}/${report.id}`, { method: "PATCH", form: { name: "" } }, "name"],
      [`${base}/${report.id}`, { method: "PATCH", form: { name: "x".repeat(256) } }, "name"],
      [base, { form: { name: "x".repeat(256) } }, "name"],
      [
        `${base}/${report.id}/add_measurements`,
        { json: { category: "sideways", measurement_ids: [w.closeUp.id] } },
        "category",
      ],
      [
        `${base}/${report.id}/add_measurements`,
        { json: { category: "close_up", measurement_ids: [] } },
        "measurement_ids",
      ],
      [
        `${base}/${report.id}/add_measurements`,
        { json: { category: "close_up", measurement_ids: ["x"] } },
        "measurement_ids.0",
      ],
      [`${base}/${report.id}/remove_measurements`, { json: {} }, "measurement_ids"],
    ];
    for (const [path, opts, field] of cases) {
      const r = await api(path, { ...opts, token: w.token });
      expect(r.status, `${path} ${JSON.stringify(opts)}`).toBe(422);
      expect(Object.keys(r.data.errors), JSON.stringify(r.data)).toContain(field);
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("another organisation's measurement in the body is answered like a missing one, nothing attached", async () => {
    const w = await world();
    const report = await createReport(w);
    const o = await world();
    const before = await snapshotTables();
    const foreign = await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "close_up", measurement_ids: [w.closeUp.id, o.closeUp.id] },
    });
    const missing = await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "close_up", measurement_ids: [w.closeUp.id, 2_000_000_000] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.data).toEqual(missing.data);
    expect(await snapshotTables()).toEqual(before);
  });

  it("a viewer reads but changes nothing (403); without the feature every call is 403", async () => {
    const w = await world();
    const report = await createReport(w);
    expect((await api(`${base}/${report.id}`, { token: w.viewerToken })).status).toBe(200);
    expect((await api(base, { token: w.viewerToken })).status).toBe(200);
    const before = await snapshotTables();
    expect((await api(base, { token: w.viewerToken, form: { name: "x" } })).status).toBe(403);
    expect(
      (await api(`${base}/${report.id}`, { method: "PATCH", token: w.viewerToken, json: { name: "x" } })).status,
    ).toBe(403);
    expect(
      (
        await api(`${base}/${report.id}/add_measurements`, {
          token: w.viewerToken,
          json: { category: "close_up", measurement_ids: [w.closeUp.id] },
        })
      ).status,
    ).toBe(403);
    expect(
      (await api(`${base}/${report.id}/remove_measurements`, { token: w.viewerToken, json: { measurement_ids: [1] } }))
        .status,
    ).toBe(403);
    expect(await snapshotTables()).toEqual(before);

    const off = await world({ features: [] });
    const list = await api(base, { token: off.token });
    expect(list.status).toBe(403);
    expect(list.data).toEqual({ error: "feature_unavailable", feature: FEATURE });
    expect((await api(base, { token: off.token, form: { name: "x" } })).status).toBe(403);
    expect((await api("/reports/mixed-stack", { cookie: off.cookie })).status).toBe(403);
  });
});

describe("mixed stack report public page and JSON", () => {
  it("shows exactly the report, nothing of the organisation's other data, nothing after rotation or stop", async () => {
    const w = await world();
    const report = await createReport(w, `Delivery ${w.marker}`);
    await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "close_up", measurement_ids: [w.closeUp.id] },
    });
    await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "far_away", measurement_ids: [w.farAway.id] },
    });
    await api(`${base}/${report.id}`, { method: "PATCH", token: w.token, json: { total_delivery_tons: 10.75 } });
    const token = report.public_token;
    // Thumbnails of a measurement in the report and of one outside it.
    const thumb = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3a5" } })
      .jpeg()
      .toBuffer();
    for (const m of [w.closeUp, w.other]) {
      const key = `organizations/${w.org.id}/measurements/${m.id}/thumb.jpg`;
      await fileStorage().put(key, thumb);
      await db().updateTable("measurements").set({ photo_thumbnail_key: key }).where("id", "=", m.id).execute();
    }

    const data = await api(`${base}/public/${token}`);
    expect(data.status).toBe(200);
    expect(data.headers.get("cache-control")).toBe("no-store");
    expect(data.data.data).toMatchObject({
      name: `Delivery ${w.marker}`,
      total_delivery_tons: 10.75,
      log_count: 4,
      average_jas: 19.5,
      tons_per_m3: 0.86,
      organization: { name: `Forest ${w.marker}` },
    });
    const thumbPath = `/mixed_stack_report/public/${token}/thumbnails/${w.closeUp.id}`;
    expect(data.data.data.measurements_data.close_up[0].photo_thumbnail).toBe(thumbPath);
    const image = await fetch(`${baseUrl()}${thumbPath}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(thumb)).toBe(true);
    expect((await api(`/mixed_stack_report/public/${token}/thumbnails/${w.other.id}`)).status).toBe(404);
    const json = JSON.stringify(data.data);
    for (const secret of [`Yard ${w.marker}`, `admin-${w.marker}`, `Comment ${w.marker}`, "/files/", "public_token"])
      expect(json).not.toContain(secret);
    expect(Object.keys(data.data.data)).not.toContain("id");
    expect(json).not.toContain(`"id":${w.other.id},`);

    const page = await api(`/mixed_stack_report/public/${token}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.data).toContain(`Delivery ${w.marker}`);
    expect(page.data).toContain('data-testid="figure-average-jas"');
    expect(page.data).not.toContain('data-testid="remove-');
    expect(page.data).not.toContain('data-testid="mixed-stack-form"');
    expect(page.data).not.toContain(`Yard ${w.marker}`);

    // The owner rotates: the old token opens nothing; then stops: the new one neither.
    const ctx = { organizationId: w.org.id };
    await rotatePublicLink(db(), ctx, "mixed_stack_report", report.id);
    expect((await api(`${base}/public/${token}`)).status).toBe(404);
    expect((await api(`/mixed_stack_report/public/${token}`)).status).toBe(404);
    expect((await api(thumbPath)).status).toBe(404);
    const rotated = (await publicLinkOf(db(), ctx, "mixed_stack_report", report.id))!.token!;
    expect((await api(`${base}/public/${rotated}`)).status).toBe(200);
    await deletePublicLink(db(), ctx, "mixed_stack_report", report.id);
    expect((await api(`${base}/public/${rotated}`)).status).toBe(404);
    expect((await api(`/mixed_stack_report/public/unknown-token-123`)).status).toBe(404);
    // A storage's token does not open a mixed stack report page.
  });
});

describe("mixed stack screens", () => {
  it("new → page; save keeps typed values on 422; remove; public link rotate; the dashboard's bulk attach", async () => {
    const w = await world();
    const created = await api("/reports/mixed-stack/new", { cookie: w.cookie, form: { name: "" } });
    expect(created.status).toBe(302);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/reports\/mixed-stack\/\d+$/);
    const id = Number(location.split("/").pop());

    // The timber dashboard's bulk bar attaches the selection in one category.
    const form = new URLSearchParams({ intent: "mixed-stack-close_up", mixed_stack_report_id: String(id) });
    form.append("measurement_ids", String(w.closeUp.id));
    const bulk = await fetchForm(`/measurements/timber?index&open=${w.storage.id}`, w.cookie, form);
    expect(bulk.status).toBe(302);
    const report = await api(`${base}/${id}`, { token: w.token });
    expect(report.data.measurements_data.close_up.map((m: { id: number }) => m.id)).toEqual([w.closeUp.id]);

    const bad = await api(`/reports/mixed-stack/${id}`, {
      cookie: w.cookie,
      headers: { Accept: "text/html" },
      form: { intent: "save", name: "Kept name", total_delivery_tons: "1.234" },
    });
    expect(bad.status).toBe(422);
    // Without JavaScript the form comes back with the error beside the field and the typed values.
    expect(bad.data).toContain('value="Kept name"');
    expect(bad.data).toContain("Use at most two decimals");
    const ok = await api(`/mixed_stack_reports/${id}`, {
      cookie: w.cookie,
      form: { intent: "save", name: "Saved name", total_delivery_tons: "3.5" },
    });
    expect(ok.status).toBe(302);
    const page = await api(`/reports/mixed-stack/${id}`, { cookie: w.cookie, headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.data).toContain("Saved name");
    expect(page.data).toContain(`data-testid="remove-${w.closeUp.id}"`);
    const removed = await api(`/reports/mixed-stack/${id}`, {
      cookie: w.cookie,
      form: { intent: "remove", measurement_ids: String(w.closeUp.id) },
    });
    expect(removed.status).toBe(302);
    expect((await api(`${base}/${id}`, { token: w.token })).data.measurements_data.close_up).toEqual([]);
    const list = await api("/reports/mixed-stack", { cookie: w.cookie, headers: { Accept: "text/html" } });
    expect(list.data).toContain("Saved name");
    expect(list.data).toContain("3,500 kg");
  });
});

describe("the list when loading fails", () => {
  it("shows the danger alert with a retry link, and the list again once the database answers", async () => {
    const w = await world();
    await createReport(w, `Alert ${w.marker}`);
    // The list's query fails for real: its table is briefly out of reach (files run one at a time).
    await sql`RENAME TABLE mixed_stack_reports TO mixed_stack_reports_away`.execute(db());
    let failed;
    try {
      failed = await api("/reports/mixed-stack", { cookie: w.cookie, headers: { Accept: "text/html" } });
    } finally {
      await sql`RENAME TABLE mixed_stack_reports_away TO mixed_stack_reports`.execute(db());
    }
    expect(failed.status).toBe(500);
    expect(failed.data).toContain('data-testid="mixed-stack-load-failed"');
    expect(failed.data).toContain('href="/reports/mixed-stack"');
    expect(failed.data).not.toContain(`Alert ${w.marker}`);
    const again = await api("/reports/mixed-stack", { cookie: w.cookie, headers: { Accept: "text/html" } });
    expect(again.status).toBe(200);
    expect(again.data).not.toContain("mixed-stack-load-failed");
    expect(again.data).toContain(`Alert ${w.marker}`);
  });
});

describe("starting a mixed stack report from the analysis area", () => {
  it("/analyze_reports/new/mixedendstack shows the same form and creates a named report", async () => {
    const w = await world();
    const page = await api("/analyze_reports/new/mixedendstack", { cookie: w.cookie });
    expect(page.status).toBe(200);
    const created = await api("/analyze_reports/new/mixedendstack", {
      cookie: w.cookie,
      form: { name: "From analysis" },
    });
    expect(created.status).toBe(302);
    const id = Number(created.headers.get("location")!.match(/^\/reports\/mixed-stack\/(\d+)$/)![1]);
    const report = await api(`${base}/${id}`, { token: w.token });
    expect(report.data.name).toBe("From analysis");
  });
});

describe("mixed stack screens in the user's language", () => {
  it("an Estonian user reads the report in Estonian with Estonian numbers", async () => {
    const w = await world();
    const report = await createReport(w);
    await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "close_up", measurement_ids: [w.closeUp.id] },
    });
    const admin = await db()
      .selectFrom("roles")
      .select("user_id")
      .where("organization_id", "=", w.org.id)
      .where("name", "=", "admin")
      .executeTakeFirstOrThrow();
    await db().updateTable("users").set({ locale: "et" }).where("id", "=", admin.user_id).execute();
    const page = await api(`/reports/mixed-stack/${report.id}`, { cookie: w.cookie, headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.data).toContain("Keskmine JAS-läbimõõt");
    expect(page.data).toContain("19,5 cm");
    expect(page.data).toContain("Lähivõte");
    expect(page.data).not.toContain("Average JAS diameter");
  });
});

describe("mixed stack demo seed", () => {
  it("gives the demo organisation a shared report with both groups and figures, once", async () => {
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 4 });
    expect(await seedMixedStack(db(), seeded.organizationId)).toBe(1);
    expect(await seedMixedStack(db(), seeded.organizationId)).toBe(0);
    const row = await db()
      .selectFrom("mixed_stack_reports")
      .select("id")
      .where("organization_id", "=", seeded.organizationId)
      .executeTakeFirstOrThrow();
    const report = (await getMixedStackReport(db(), { organizationId: seeded.organizationId }, row.id))!;
    expect(report.name).toBe(DEMO_MIXED_STACK_NAME);
    expect(report.measurements_data.close_up).toHaveLength(2);
    expect(report.measurements_data.far_away).toHaveLength(1);
    expect(report.log_count).toBeGreaterThan(0);
    expect(report.average_jas).not.toBeNull();
    expect(report.tons_per_m3).not.toBeNull();
    expect(report.public_token).not.toBeNull();
  });
});

async function fetchForm(path: string, cookie: string, body: URLSearchParams) {
  const { baseUrl } = await import("#tests/helpers/http");
  const r = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { Cookie: cookie },
    body,
    redirect: "manual",
  });
  return { status: r.status, headers: r.headers };
}

describe("mixed_stack_report_excel", () => {
  it("writes the figures and both groups, read back with exceljs; 404 for another organisation's report", async () => {
    const w = await world();
    const report = await createReport(w, "Excel delivery");
    await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "close_up", measurement_ids: [w.closeUp.id] },
    });
    await api(`${base}/${report.id}/add_measurements`, {
      token: w.token,
      json: { category: "far_away", measurement_ids: [w.farAway.id] },
    });
    await api(`${base}/${report.id}`, { method: "PATCH", token: w.token, json: { total_delivery_tons: 10.75 } });
    const res = await api("/api/web_app/excel_exports", {
      token: w.token,
      json: { report_type: "mixed_stack_report_excel", mixed_stack_report_id: report.id },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: w.cookie })).body);
    const summary = wb.getWorksheet("Summary")!;
    const byLabel = new Map<string, unknown>();
    summary.eachRow((row, n) => {
      if (n > 1) byLabel.set(String(row.getCell(1).value), row.getCell(2).value ?? row.getCell(3).value);
    });
    expect(byLabel.get("Report name")).toBe("Excel delivery");
    expect(byLabel.get("Total delivery")).toBe(10.75);
    expect(byLabel.get("Number of logs")).toBe(4);
    expect(byLabel.get("Average diameter")).toBe(20.5);
    expect(byLabel.get("Average JAS diameter")).toBe(19.5);
    expect(byLabel.get("Weight per cubic metre")).toBe(0.86);
    expect(byLabel.get("Cubic metres per ton")).toBe(1.163);
    const sheet = wb.getWorksheet("Measurements")!;
    expect(sheet.rowCount).toBe(3);
    expect([
      sheet.getRow(2).getCell(1).value,
      sheet.getRow(2).getCell(2).value,
      sheet.getRow(2).getCell(4).value,
    ]).toEqual(["Close up", w.closeUp.id, 4]);
    expect([
      sheet.getRow(3).getCell(1).value,
      sheet.getRow(3).getCell(2).value,
      sheet.getRow(3).getCell(5).value,
    ]).toEqual(["Far away", w.farAway.id, 12.5]);

    const o = await world();
    const foreign = await api("/api/web_app/excel_exports", {
      token: o.token,
      json: { report_type: "mixed_stack_report_excel", mixed_stack_report_id: report.id },
    });
    expect(foreign.status).toBe(404);
    const off = await world({ features: [] });
    const gated = await api("/api/web_app/excel_exports", {
      token: off.token,
      json: { report_type: "mixed_stack_report_excel", mixed_stack_report_id: report.id },
    });
    expect(gated.status).toBe(422);
    expect(gated.data.error).toBe("feature_unavailable");
  });
});
