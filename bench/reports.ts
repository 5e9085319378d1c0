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
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createConnection, type Connection } from "mysql2/promise";
import pg from "pg";
import { migrateAll } from "../db/migrate-lib";

const MYSQL_ROOT = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const PG_ROOT = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
// BENCH_SMOKE=1: a tiny size that only proves the benchmark still runs (npm test runs it; no figures asserted).
const SMOKE = process.env.BENCH_SMOKE === "1";
const MEASUREMENTS = SMOKE ? 20 : Number(process.env.BENCH_MEASUREMENTS ?? 2000);
const LOGS_PER = SMOKE ? 5 : Number(process.env.BENCH_LOGS_PER ?? 100);
const OTHER = SMOKE ? 20 : Number(process.env.BENCH_OTHER ?? 2000);
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 40);
const JOB_RUNS = SMOKE ? 1 : Number(process.env.BENCH_JOB_RUNS ?? 5);
const WARMUP = SMOKE ? 1 : 3;

const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const mysqlName = `timber_reports_bench_${suffix}`;
const pgName = `timber_jobs_reports_bench_${suffix}`;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

async function time(fn: () => Promise<unknown>, runs = RUNS, warmup = WARMUP) {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return stats(times);
}

const fmt = (s: { median: number; p95: number }) => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`;
const ratio = (a: { median: number; p95: number }, b: { median: number; p95: number }) =>
  `median ratio ${(a.median / b.median).toFixed(2)}x, p95 ratio ${(a.p95 / b.p95).toFixed(2)}x`;

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
  const mysqlUrl = `${MYSQL_ROOT}/${mysqlName}`;
  const jobsUrl = `${PG_ROOT}/${pgName}`;
  Object.assign(process.env, {
    DATABASE_URL: mysqlUrl,
    JOBS_DATABASE_URL: jobsUrl,
    STORAGE_DIR: storageDir,
    SESSION_SECRET: randomBytes(32).toString("hex"),
  });
  await migrateAll({ mysqlUrl, jobsUrl });
  const { db } = await import("../app/utils/db.server");
  const { runReportGeneration } = await import("../app/models/report.server");
  const { addJob, closeJobs, enqueueReportJob } = await import("../app/services/jobs.server");
  const { apiToken, createOrganization, createStorage, createUser, webCookie } = await import("../tests/factories");
  const conn = await createConnection({ uri: mysqlUrl });
  const processes: ChildProcess[] = [];
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
    console.log(
      `machine load average (1 min) before timing: ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`,
    );

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
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      REQUEST_LOG: "off",
      MAP_TILE_URL: "none",
    } as NodeJS.ProcessEnv;
    const worker = spawn("node", ["build/worker.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
    processes.push(worker);
    const web = spawn("node", ["server.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
    processes.push(web);
    for (let i = 0; i < 400; i++) {
      try {
        if ((await fetch(`${base}/healthcheck`)).ok) break;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 150));
    }
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
    const get = async (p: string, headers: Record<string, string>) => {
      const r = await fetch(`${base}${p}`, { headers, redirect: "manual" });
      if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
      return r.text();
    };
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
    for (const p of processes) p.kill("SIGTERM");
    await Promise.all(
      processes.map((p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : p.once("exit", resolve)))),
    );
    await closeJobs();
    await db().destroy();
    await conn.query(`DROP DATABASE IF EXISTS \`${mysqlName}\``);
    await conn.end();
    const client = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
    await client.end();
    await rm(storageDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
