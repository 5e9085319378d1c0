import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pile, rephotograph, type PileLog } from "#db/seed/pile-variants";
import { layoutStack, renderStackJpeg } from "#db/seed/stack-photo";
import { apiToken, createOrganization, createStorage, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { waitFor } from "#tests/helpers/wait";
import { runAnalysis } from "~/services/duplicate-analysis.server";
import { fileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import { db } from "~/utils/db.server";

// The duplicate analysis end to end against the running app and worker: the calls, the job's
// status transitions (finished, failed, a lost run finished by the sweep), and the cases found
// for constructed duplicates and not for constructed look-alikes.

const FEATURE = "duplicate_storage_measurements";
const DAY = new Date(Date.UTC(2026, 10, 10, 9));

async function setup(opts: { features?: string[]; role?: "admin" | "viewer" } = {}) {
  const org = await createOrganization({ name: "Forest Co", features: opts.features ?? [FEATURE] });
  const user = await createUser(org.id, { role: opts.role ?? "admin" });
  const storage = await createStorage(org.id, { name: "Riverside landing" });
  return { org, user, storage, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

/** A measurement with its logs as detection left them, optionally a photo file. */
async function measured(
  orgId: number,
  storageId: number,
  logs: PileLog[],
  opts: { takenAt?: Date; photo?: Buffer; lat?: number; lon?: number } = {},
) {
  const volume = logs.reduce((s, l) => s + Math.PI * (l.d / 200) ** 2 * 4, 0);
  const r = await db()
    .insertInto("measurements")
    .values({
      organization_id: orgId,
      storage_id: storageId,
      taken_at: opts.takenAt ?? DAY,
      latitude: opts.lat ?? 58.38,
      longitude: opts.lon ?? 26.72,
      log_length: 4,
      logs_count: logs.length,
      volume,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  await db()
    .insertInto("logs")
    .values(logs.map((l) => ({ organization_id: orgId, measurement_id: id, x: l.x, y: l.y, r: l.r, d: l.d, v: 0.1 })))
    .execute();
  if (opts.photo) {
    await storeOriginalPhoto(db(), fileStorage(), "timber", {
      organizationId: orgId,
      measurementId: id,
      data: opts.photo,
      fileName: "pile.jpg",
    });
  }
  return id;
}

const report = (id: number) =>
  db().selectFrom("analyze_reports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const waitForReport = (id: number, timeoutMs = 30_000) =>
  waitFor(
    async () => {
      const r = await report(id);
      return r.status === "created" ? null : r;
    },
    { timeoutMs, what: `analysis ${id}` },
  );

const body = (values: Record<string, unknown> = {}) => ({
  analyze_report: {
    name: "November check",
    type_key: FEATURE,
    period_from: "2026-11-01",
    period_to: "2026-11-30",
    storage_ids: [],
    measurement_types: [],
    ...values,
  },
});

describe("POST /api/web_app/analyze_reports and the job", () => {
  it("finds re-uploads, re-encoded photos and re-photographed piles, not look-alikes; lists, shows and resolves", async () => {
    const { org, storage, token } = await setup();
    const other = await createStorage(org.id, { name: "Hilltop yard" });
    const stack = layoutStack(31, { width: 800, height: 600 });
    const jpeg = await renderStackJpeg(stack, 31);
    // 1. One photo uploaded twice, at two storages (same file).
    const upload1 = await measured(org.id, storage.id, pile(1), { photo: jpeg });
    const upload2 = await measured(org.id, other.id, pile(2), { photo: jpeg, lat: 59.4, lon: 24.7 });
    // 2. The same photo re-encoded smaller (near-identical).
    const photoA = await measured(org.id, storage.id, pile(3), { photo: await renderStackJpeg(layoutStack(33), 33) });
    const photoB = await measured(org.id, other.id, pile(4), {
      photo: await sharp(await renderStackJpeg(layoutStack(33), 33))
        .resize(500)
        .jpeg({ quality: 50 })
        .toBuffer(),
      lat: 59.4,
      lon: 24.7,
    });
    // 3. A pile photographed again an hour later from elsewhere on the landing.
    const original = pile(5);
    const pileA = await measured(org.id, storage.id, original);
    const pileB = await measured(org.id, storage.id, rephotograph(original, 99), {
      takenAt: new Date(DAY.getTime() + 3600_000),
      lat: 58.38005,
    });
    // 4. Look-alikes: other piles of the same kind, same yard, same day.
    for (let seed = 40; seed < 46; seed++) await measured(org.id, storage.id, pile(seed));
    // 5. Outside the period: never compared.
    await measured(org.id, storage.id, original, { takenAt: new Date(Date.UTC(2026, 9, 10)) });

    const created = await api("/api/web_app/analyze_reports", { token, json: body() });
    expect(created.status).toBe(201);
    expect(created.data.data).toMatchObject({ name: "November check", status: "created", type_key: FEATURE });
    const done = await waitForReport(created.data.data.id);
    expect(done.status).toBe("finished");
    expect(done.measurements_compared).toBe(12);

    const list = await api("/api/web_app/analyze_reports", { token });
    expect(list.data.data.map((r: { id: number; status: string }) => [r.id, r.status])).toEqual([
      [done.id, "finished"],
    ]);
    const detail = await api(`/api/web_app/analyze_reports/${done.id}`, { token });
    expect(detail.status).toBe(200);
    const cases = detail.data.data.cases as Array<{ id: number; reasons: string[]; measurements: number[] }>;
    expect(cases.map((c) => [c.measurements, c.reasons])).toEqual([
      [[upload1, upload2], ["same_photo"]],
      [[photoA, photoB], ["similar_photo"]],
      [
        [pileA, pileB],
        ["nearby", "same_pile"],
      ],
    ]);
    expect(detail.data.data.duration_minutes).toBe(1);
    expect(detail.data.data.cases[0].items[0]).toMatchObject({ id: upload1, storage_name: "Riverside landing" });

    const resolved = await api(`/api/web_app/analyze_reports/${done.id}/cases/${cases[2].id}/resolve`, {
      token,
      method: "POST",
    });
    expect(resolved.status).toBe(200);
    expect(resolved.data.data.resolved_at).toEqual(expect.any(String));
    const again = await api(`/api/web_app/analyze_reports/${done.id}/cases/${cases[2].id}/resolve`, {
      token,
      method: "POST",
    });
    expect(again.data.data.resolved_at).toBe(resolved.data.data.resolved_at);
    const after = await api(`/api/web_app/analyze_reports/${done.id}`, { token });
    expect(after.data.data.cases.map((c: { resolved_at: string | null }) => c.resolved_at !== null)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it("analyses only the chosen storages and measurement types", async () => {
    const { org, storage, token } = await setup();
    const other = await createStorage(org.id, { name: "Hilltop yard" });
    const original = pile(6);
    await measured(org.id, other.id, original);
    await measured(org.id, other.id, rephotograph(original, 5));
    const created = await api("/api/web_app/analyze_reports", {
      token,
      json: body({ storage_ids: [storage.id], measurement_types: [0] }),
    });
    expect(created.data.data).toMatchObject({ storage_ids: [storage.id], measurement_types: [0] });
    const done = await waitForReport(created.data.data.id);
    expect(done.measurements_compared).toBe(0);
    expect((await api(`/api/web_app/analyze_reports/${done.id}`, { token })).data.data.cases).toEqual([]);
  });

  it("pages cases 5 at a time", async () => {
    const { org, storage, token } = await setup();
    for (let seed = 0; seed < 7; seed++) {
      const original = pile(300 + seed);
      await measured(org.id, storage.id, original);
      await measured(org.id, storage.id, rephotograph(original, seed));
    }
    const created = await api("/api/web_app/analyze_reports", { token, json: body() });
    const done = await waitForReport(created.data.data.id);
    const page1 = await api(`/api/web_app/analyze_reports/${done.id}`, { token });
    const page2 = await api(`/api/web_app/analyze_reports/${done.id}?page=2`, { token });
    expect([page1.data.data.cases.length, page2.data.data.cases.length, page1.data.data.cases_total]).toEqual([
      5, 2, 7,
    ]);
  });
});

describe("refusals", () => {
  it("answers 422 with field errors and creates nothing", async () => {
    const { token } = await setup();
    const foreignOrg = await createOrganization();
    const foreign = await createStorage(foreignOrg.id);
    const before = await snapshotTables();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "" }, "analyze_report.name"],
      [{ name: "x".repeat(256) }, "analyze_report.name"],
      [{ period_from: "2026-13-01" }, "analyze_report.period_from"],
      [{ period_to: undefined }, "analyze_report.period_to"],
      [{ period_from: "2026-11-30", period_to: "2026-11-01" }, "analyze_report.period_to"],
      [{ type_key: "mixed_stack" }, "analyze_report.type_key"],
      [{ measurement_types: [7] }, "analyze_report.measurement_types.0"],
    ];
    for (const [values, path] of cases) {
      const res = await api("/api/web_app/analyze_reports", { token, json: body(values) });
      expect(res.status, JSON.stringify(values)).toBe(422);
      expect(Object.keys(res.data.errors), JSON.stringify(values)).toContain(path);
    }
    const res = await api("/api/web_app/analyze_reports", { token, json: body({ storage_ids: [foreign.id] }) });
    expect(res.status).toBe(422);
    expect(res.data.errors).toEqual({ storage_ids: ["analysis:errors.storage"] });
    expect(await snapshotTables()).toEqual(before);
  });

  it("is admin-only and needs the duplicate_storage_measurements feature", async () => {
    const viewer = await setup({ role: "viewer" });
    const before = await snapshotTables();
    expect((await api("/api/web_app/analyze_reports", { token: viewer.token, json: body() })).status).toBe(403);
    expect((await api("/api/web_app/analyze_reports", { token: viewer.token })).status).toBe(403);
    const plain = await setup({ features: [] });
    const refused = await api("/api/web_app/analyze_reports", { token: plain.token, json: body() });
    expect(refused).toMatchObject({ status: 403, data: { error: "feature_unavailable", feature: FEATURE } });
    expect((await api("/api/web_app/analyze_reports", { token: plain.token })).status).toBe(403);
    // The screens: the viewer is refused, the admin without the feature sees the notice, not the form.
    expect((await api("/analyze_reports", { cookie: viewer.cookie })).status).toBe(403);
    const page = await api("/analyze_reports/new", { cookie: plain.cookie });
    expect(page.status).toBe(200);
    expect(page.data).toContain('data-testid="upsell"');
    expect(page.data).not.toContain('data-testid="start-analysis"');
    expect(await snapshotTables()).toMatchObject({ analyze_reports: before.analyze_reports });
  });

  it("another organisation's report and case answer 404 and nothing changes", async () => {
    const { org, token } = await setup();
    const created = await api("/api/web_app/analyze_reports", { token, json: body() });
    await waitForReport(created.data.data.id);
    const caseId = Number(
      (
        await db()
          .insertInto("analyze_report_cases")
          .values({
            organization_id: org.id,
            analyze_report_id: created.data.data.id,
            reasons: '["same_photo"]',
            measurement_ids: "[1, 2]",
          })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    const id = created.data.data.id;
    await expectOutsiderGets404(({ token: t }) => api(`/api/web_app/analyze_reports/${id}`, { token: t }));
    await expectOutsiderGets404(({ token: t }) =>
      api(`/api/web_app/analyze_reports/${id}/cases/${caseId}/resolve`, { token: t, method: "POST" }),
    );
    await expectOutsiderGets404(({ cookie }) => api(`/analyze_reports/${id}`, { cookie }));
    // The case's own report id must match too.
    const wrong = await api(`/api/web_app/analyze_reports/${id + 1000}/cases/${caseId}/resolve`, {
      token,
      method: "POST",
    });
    expect(wrong.status).toBe(404);
  });
});

describe("job status transitions", () => {
  it("fails with the reason on the last attempt, and stays created for a retry before it", async () => {
    const { org, user } = await setup();
    const row = async () =>
      Number(
        (
          await db()
            .insertInto("analyze_reports")
            .values({
              organization_id: org.id,
              user_id: user.id,
              name: "Doomed",
              period_from: "2026-11-01",
              period_to: "2026-11-30",
              storage_ids: "[]",
              measurement_types: "[]",
            })
            .executeTakeFirstOrThrow()
        ).insertId,
      );
    const boom = () => {
      throw new Error("matcher exploded");
    };
    const retried = await row();
    await expect(runAnalysis(db(), fileStorage(), retried, { attempts: 1, maxAttempts: 3 }, boom)).rejects.toThrow(
      "matcher exploded",
    );
    expect(await report(retried)).toMatchObject({ status: "created", attempts: 1 });
    const last = await row();
    await runAnalysis(db(), fileStorage(), last, { attempts: 3, maxAttempts: 3 }, boom);
    expect(await report(last)).toMatchObject({ status: "failed", status_detail: "matcher exploded" });
    expect((await report(last)).completed_at).not.toBeNull();
    // A finished or failed report is never run again.
    await runAnalysis(db(), fileStorage(), last);
    expect((await report(last)).status).toBe("failed");
  });

  it("a run lost with its worker (started, no job left) is finished by the sweep", { timeout: 150_000 }, async () => {
    const { org, user, storage } = await setup();
    const original = pile(8);
    const a = await measured(org.id, storage.id, original);
    const b = await measured(org.id, storage.id, rephotograph(original, 8));
    const longAgo = new Date(Date.now() - 3600_000);
    // What a worker killed mid-run leaves: the report started, its job gone with the worker.
    const id = Number(
      (
        await db()
          .insertInto("analyze_reports")
          .values({
            organization_id: org.id,
            user_id: user.id,
            name: "Interrupted",
            period_from: "2026-11-01",
            period_to: "2026-11-30",
            storage_ids: "[]",
            measurement_types: "[]",
            started_at: longAgo,
            enqueued_at: longAgo,
            attempts: 1,
          })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    // The sweep runs every minute in the test run's worker.
    const done = await waitForReport(id, 140_000);
    expect(done.status).toBe("finished");
    const cases = await db()
      .selectFrom("analyze_report_cases")
      .selectAll()
      .where("analyze_report_id", "=", id)
      .execute();
    expect(cases.map((c) => c.measurement_ids)).toEqual([[a, b]]);
  });
});

describe("the demo seed", () => {
  it("gives the demo organisation the add-on and a finished analysis with cases, the first resolved", async () => {
    const { seedDemo } = await import("#db/seed/demo");
    const { seedAnalysis } = await import("#db/seed/analysis");
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 6 });
    const id = await seedAnalysis(db(), fileStorage(), seeded.organizationId);
    expect(id).not.toBeNull();
    const org = await db()
      .selectFrom("organizations")
      .select("features")
      .where("id", "=", seeded.organizationId)
      .executeTakeFirstOrThrow();
    expect(org.features).toContain(FEATURE);
    expect(await report(id!)).toMatchObject({ status: "finished", measurements_compared: 9 });
    const cases = await db()
      .selectFrom("analyze_report_cases")
      .selectAll()
      .where("analyze_report_id", "=", id!)
      .orderBy("id")
      .execute();
    expect(cases.map((c) => c.reasons)).toEqual([
      ["same_photo", "nearby", "same_pile"],
      expect.arrayContaining(["same_pile"]),
      expect.arrayContaining(["same_pile"]),
    ]);
    expect(cases.map((c) => c.resolved_at !== null)).toEqual([true, false, false]);
    // Run again, it adds nothing.
    expect(await seedAnalysis(db(), fileStorage(), seeded.organizationId)).toBeNull();
  });
});
