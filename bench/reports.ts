/**
 * Reports benchmark (issue 17). Seeds its own databases with one organisation and a report over
 * 2,000 measurements / 200,000 logs (100 a measurement, some with their own assortment, some
 * culled, a few deleted), plus as many measurements and logs again outside the report, and prints:
 *   - the generation job (generate_report) as the worker runs it: from enqueueing to the report
 *     no longer generating, through the built worker (target < 5 s);
 *   - the same work in process (runReportGeneration: read, tally, store), against the bare
 *     streaming read of the same logs (the floor: what MySQL alone takes to hand them over);
 *   - the detail page /reports/{id} (server time, target < 200 ms) and GET /api/web_app/reports/{id},
 *     against the bare SQL of what they read.
 * Sizes: BENCH_MEASUREMENTS (2000), BENCH_LOGS_PER (100), BENCH_OTHER (2000 measurements outside
 * the report), BENCH_RUNS, BENCH_JOB_RUNS.
 * Run: npm run build && npx tsx bench/reports.ts   (needs MySQL and PostgreSQL as for the tests)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createConnection, type Connection } from "mysql2/promise";
import { SMOKE, benchDatabases, fmt, httpClient, machineLoad, ratio, rng, startWeb, time as timeRuns } from "./lib";

const MEASUREMENTS = SMOKE ? 20 : Number(process.env.BENCH_MEASUREMENTS ?? 2000);
const LOGS_PER = SMOKE ? 5 : Number(process.env.BENCH_LOGS_PER ?? 100);
const OTHER = SMOKE ? 20 : Number(process.env.BENCH_OTHER ?? 2000);
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 40);
const JOB_RUNS = SMOKE ? 1 : Number(process.env.BENCH_JOB_RUNS ?? 5);
const WARMUP = SMOKE ? 1 : 3;

const time = (fn: () => Promise<unknown>, runs = RUNS, warmup = WARMUP) => timeRuns(fn, { runs, warmup });

/** Measurements and their logs in bulk; returns the first measurement id (ids are consecutive per batch). */
async function seedMeasurements(
  conn: Connection,
  o: { orgId: number; storageId: number; count: number; assortments: number[]; culls: number[]; rand: () => number },
) {
  const ids: number[] = [];
  const BATCH = 1000;
  let logsDone = 0;
  for (let start = 0; start < o.count; start += BATCH) {
    const n = Math.min(BATCH, o.count - start);
    const rows = Array.from({ length: n }, (_, i) => [
      o.orgId,
      o.storageId,
      new Date(Date.now() - o.rand() * 90 * 86400_000),
      3 + (i % 3),
      o.assortments[i % o.assortments.length],
      LOGS_PER,
      1 + o.rand() * 5,
      "cylinder",
      1 + (i % 3),
    ]);
    const [res] = (await conn.query(
      "INSERT INTO measurements (organization_id, storage_id, taken_at, log_length, assortment_id, logs_count, volume, volume_formula, wood_type_id) VALUES ?",
      [rows],
    )) as any;
    const first = res.insertId as number;
    for (let i = 0; i < n; i++) ids.push(first + i);
    let logRows: unknown[][] = [];
    for (let m = 0; m < n; m++) {
      for (let k = 0; k < LOGS_PER; k++) {
        const d = 10 + o.rand() * 40;
        const roll = o.rand();
        logRows.push([
          o.orgId,
          first + m,
          10 + k * 12,
          20 + (k % 9) * 30,
          d * 1.5,
          d,
          0.1,
          // A fifth of the logs have their own assortment, one in twenty is culled, one in a hundred deleted.
          roll < 0.2 ? o.assortments[k % o.assortments.length] : null,
          roll > 0.95 ? o.culls[k % o.culls.length] : null,
          roll > 0.94 && roll <= 0.95,
        ]);
        if (logRows.length >= 10_000) {
          await conn.query(
            "INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v, assortment_id, cull_id, is_deleted) VALUES ?",
            [logRows],
          );
          logsDone += logRows.length;
          logRows = [];
        }
      }
    }
    if (logRows.length) {
      await conn.query(
        "INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v, assortment_id, cull_id, is_deleted) VALUES ?",
        [logRows],
      );
      logsDone += logRows.length;
    }
    process.stdout.write(`\rseeded ${start + n} of ${o.count} measurements, ${logsDone} logs`);
  }
  process.stdout.write("\n");
  return ids;
}

async function main() {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), "reports-bench-"));
  const dbs = await benchDatabases("reports");
  Object.assign(process.env, {
    DATABASE_URL: dbs.mysqlUrl,
    JOBS_DATABASE_URL: dbs.jobsUrl,
    STORAGE_DIR: storageDir,
    SESSION_SECRET: randomBytes(32).toString("hex"),
  });
  const { db } = await import("../app/utils/db.server");
  const { runReportGeneration } = await import("../app/models/report.server");
  const { addJob, closeJobs, enqueueReportJob } = await import("../app/services/jobs.server");
  const { apiToken, createOrganization, createStorage, createUser, webCookie } = await import("../tests/factories");
  const conn = await createConnection({ uri: dbs.mysqlUrl });
  const processes: ChildProcess[] = [];
  let web: Awaited<ReturnType<typeof startWeb>> | null = null;
  let client: ReturnType<typeof httpClient> | null = null;
  try {
    const t0 = performance.now();
    const rand = rng(17);
    const org = await createOrganization({ name: "Bench Sawmill", features: ["reports"] });
    const admin = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "Bench landing" });
    const assortments: number[] = [];
    for (const [name, price, perLog] of [
      ["Spruce sawlog", 6500, null],
      ["Pine sawlog", 7000, null],
      ["Pulpwood", 3800, null],
      ["Firewood", 0, 250],
    ] as const) {
      const [r] = (await conn.query(
        "INSERT INTO assortments (organization_id, name, price_cents, price_per_log_cents, volume_unit) VALUES (?, ?, ?, ?, 'm^3')",
        [org.id, name, price, perLog],
      )) as any;
      assortments.push(r.insertId);
    }
    const culls: number[] = [];
    for (const reason of ["Rot", "Crook"]) {
      const [r] = (await conn.query("INSERT INTO culls (organization_id, reason) VALUES (?, ?)", [
        org.id,
        reason,
      ])) as any;
      culls.push(r.insertId);
    }
    await conn.query("SET UNIQUE_CHECKS = 0");
    const inReport = await seedMeasurements(conn, {
      orgId: org.id,
      storageId: storage.id,
      count: MEASUREMENTS,
      assortments,
      culls,
      rand,
    });
    await seedMeasurements(conn, { orgId: org.id, storageId: storage.id, count: OTHER, assortments, culls, rand });
    const [rep] = (await conn.query(
      "INSERT INTO reports (organization_id, name, volume_formula, volume_unit, reported_at, generating_in_progress, generation_enqueued_at, created_by) VALUES (?, 'Bench delivery', 'jas', 'm^3', '2026-11-27', TRUE, NOW(3), ?)",
      [org.id, admin.id],
    )) as any;
    const reportId = rep.insertId as number;
    for (let i = 0; i < inReport.length; i += 5000)
      await conn.query("INSERT INTO report_measurements (organization_id, report_id, measurement_id) VALUES ?", [
        inReport.slice(i, i + 5000).map((m) => [org.id, reportId, m]),
      ]);
    await conn.query("SET UNIQUE_CHECKS = 1");
    await conn.query("ANALYZE TABLE measurements, logs, report_measurements, reports");
    console.log(`seed: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(
      `report: ${MEASUREMENTS} measurements, ${MEASUREMENTS * LOGS_PER} logs (another ${OTHER} measurements, ${OTHER * LOGS_PER} logs outside it)`,
    );
    console.log(`${machineLoad()} before timing`);

    const [plan] = (await conn.query(
      `EXPLAIN SELECT l.measurement_id, l.d, l.cull_id, l.assortment_id FROM report_measurements rm
       JOIN measurements m ON m.id = rm.measurement_id JOIN logs l ON l.measurement_id = m.id
       WHERE rm.report_id = ? AND m.organization_id = ? AND m.deleted_at IS NULL AND l.is_deleted = FALSE
       ORDER BY l.measurement_id`,
      [reportId, org.id],
    )) as any;
    console.log("the job's log query plan:");
    for (const p of plan) console.log(`  ${p.table}: ${p.type} ${p.key ?? "-"} rows ${p.rows} ${p.Extra ?? ""}`);

    const regenerate = () =>
      conn.query("UPDATE reports SET generating_in_progress = TRUE, generation_enqueued_at = NOW(3) WHERE id = ?", [
        reportId,
      ]);

    // 1. In process: what the job does (read, tally, store), against the bare read of the same logs.
    const job = await time(
      async () => {
        await regenerate();
        const r = await runReportGeneration(db(), reportId);
        if (!r || r.generating_in_progress) throw new Error("the report is still generating");
      },
      Math.max(1, Math.ceil(RUNS / 8)),
      1,
    );
    const bare = await time(
      () =>
        new Promise<void>((resolve, reject) => {
          // The same rows the job streams, read as fast as mysql2 hands them over (no tally, no write).
          let n = 0;
          (conn as any).connection
            .query(
              `SELECT l.measurement_id, l.d, l.cull_id, l.assortment_id FROM report_measurements rm
               JOIN measurements m ON m.id = rm.measurement_id JOIN logs l ON l.measurement_id = m.id
               WHERE rm.report_id = ? AND m.organization_id = ? AND m.deleted_at IS NULL AND l.is_deleted = FALSE
               ORDER BY l.measurement_id`,
              [reportId, org.id],
            )
            .stream()
            .on("data", () => n++)
            .on("end", () => (n > 0 ? resolve() : reject(new Error("no logs"))))
            .on("error", reject);
        }),
      Math.max(1, Math.ceil(RUNS / 8)),
      1,
    );
    const [[row]] = (await conn.query("SELECT details FROM reports WHERE id = ?", [reportId])) as any;
    const details = typeof row.details === "string" ? JSON.parse(row.details) : row.details;
    console.log(
      `tallies: ${details.totals.log_count} logs, ${details.totals.volume.toFixed(3)} m³ (JAS), value ${details.totals.value}, ${details.logs.length} lines`,
    );

    // 2. Through the built worker: enqueue, then the report is no longer generating.
    // The web server and the worker get the session secret the cookie and token are signed with
    // (STORAGE_DIR and the databases come with process.env).
    web = await startWeb({ ...dbs, env: { SESSION_SECRET: process.env.SESSION_SECRET, REQUEST_LOG: "off" } });
    client = httpClient(web.base);
    const worker = spawn("node", ["build/worker.js"], { env: web.env, stdio: ["ignore", "pipe", "inherit"] });
    processes.push(worker);
    // Started after the web server (it takes the server's address): its start-up stays out of the
    // timed runs.
    await new Promise<void>((resolve, reject) => {
      worker.stdout!.on("data", (c: Buffer) => c.toString().includes("worker: running") && resolve());
      worker.once("exit", (code) => reject(new Error(`the worker exited (${code})`)));
    });
    const generating = async () => {
      const [[r]] = (await conn.query("SELECT generating_in_progress AS g FROM reports WHERE id = ?", [
        reportId,
      ])) as any;
      return Boolean(r.g);
    };
    const viaWorker = await time(
      async () => {
        await regenerate();
        await enqueueReportJob(reportId, addJob);
        const started = performance.now();
        while (await generating()) {
          if (performance.now() - started > 120_000) throw new Error("the worker did not finish the report");
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      JOB_RUNS,
      SMOKE ? 0 : 1,
    );

    // 3. The detail page and the API read, against the bare SQL of what they read.
    const cookie = await webCookie(admin.id);
    const token = await apiToken(admin.id);
    const http = client;
    const get = (p: string, headers: Record<string, string>) => http.get(p, headers);
    const page = await time(() => get(`/reports/${reportId}`, { Cookie: cookie }));
    const pageTwo = await time(() => get(`/reports/${reportId}?page=200`, { Cookie: cookie }));
    // The list page: the same signed-in shell (layout, billing, badge) around a small table.
    const listPage = await time(() => get(`/reports`, { Cookie: cookie }));
    const apiRead = await time(() => get(`/api/web_app/reports/${reportId}`, { Authorization: `Bearer ${token}` }));
    const authOnly = await time(() => get(`/api/web_app/enabled_features`, { Authorization: `Bearer ${token}` }));
    const pageSql = await time(() =>
      Promise.all([
        conn.query("SELECT * FROM reports WHERE id = ?", [reportId]),
        conn.query(
          `SELECT COUNT(*) FROM report_measurements rm JOIN measurements m ON m.id = rm.measurement_id
           WHERE rm.report_id = ? AND m.organization_id = ? AND m.deleted_at IS NULL`,
          [reportId, org.id],
        ),
        conn.query(
          `SELECT m.id, m.photo_thumbnail_key, m.taken_at, m.logs_count, m.volume, m.volume_formula
           FROM report_measurements rm JOIN measurements m ON m.id = rm.measurement_id
           WHERE rm.report_id = ? AND m.organization_id = ? AND m.deleted_at IS NULL
           ORDER BY m.taken_at, m.id LIMIT 5 OFFSET 0`,
          [reportId, org.id],
        ),
        conn.query("SELECT name, currency FROM organizations WHERE id = ?", [org.id]),
      ]),
    );
    const apiSql = await time(() =>
      Promise.all([
        conn.query("SELECT * FROM reports WHERE id = ?", [reportId]),
        conn.query(
          `SELECT m.id FROM report_measurements rm JOIN measurements m ON m.id = rm.measurement_id
           WHERE rm.report_id = ? AND m.organization_id = ? AND m.deleted_at IS NULL ORDER BY m.id`,
          [reportId, org.id],
        ),
      ]),
    );

    console.log(`\ngenerate_report through the worker (enqueue → done)  ${fmt(viaWorker)}   (target < 5000 ms)`);
    console.log(
      `runReportGeneration in process (read, tally, store)   ${fmt(job)}   (bare streaming read of the same logs: ${fmt(bare)}; ${ratio(job, bare)})`,
    );
    console.log(
      `GET /reports/{id} (page, server time)                 ${fmt(page)}   (bare SQL: ${fmt(pageSql)}; ${ratio(page, pageSql)}; target < 200 ms)`,
    );
    console.log(`GET /reports/{id}?page=200 (last thumbnails page)     ${fmt(pageTwo)}`);
    console.log(`GET /reports (list page: the shell around one row)    ${fmt(listPage)}`);
    console.log(
      `GET /api/web_app/reports/{id}                         ${fmt(apiRead)}   (bare SQL: ${fmt(apiSql)}; ${ratio(apiRead, apiSql)})`,
    );
    console.log(
      `GET /api/web_app/enabled_features                     ${fmt(authOnly)}   (HTTP + Remix + signed-in context, no query of its own)`,
    );
  } finally {
    client?.close();
    for (const p of processes) p.kill("SIGTERM");
    await Promise.all([
      web?.stop(),
      ...processes.map(
        (p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : p.once("exit", resolve))),
      ),
    ]);
    await closeJobs();
    await db().destroy();
    await dbs.drop(conn);
    await conn.end();
    await rm(storageDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
