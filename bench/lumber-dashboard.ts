/**
 * Lumber dashboard benchmark (issue 23). Seeds its own MySQL database with one organisation,
 * 300 storages, 20,000 lumber measurements over a year and 2,000,000 planks (100 per
 * measurement), starts the built web server against it, and prints median and p95 times of:
 *   - GET /api/web_app/dashboard_filter?lumber_measurements=true (three-month range, product and
 *     state filters) vs its bare SQL aggregate,
 *   - the same with measurements_included=true (the lumber dashboard's load call) vs its bare SQL
 *     (the aggregate and the id list),
 *   - the /measurements/lumber page and with a storage expanded (server response).
 * Targets: the dashboard call p95 < 150 ms and within 1.5x its bare aggregate.
 * Run: npm run build && npx tsx bench/lumber-dashboard.ts   (needs MySQL and PostgreSQL as for the tests)
 * BENCH_PLANKS_PER=0 skips the plank rows (the timed calls never read them).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { createConnection, type Connection } from "mysql2/promise";
import pg from "pg";
import { migrateAll } from "../db/migrate-lib";

const MYSQL_ROOT = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const PG_ROOT = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
// BENCH_SMOKE=1: a tiny size that only proves the benchmark still runs (npm test runs it; no figures asserted).
const SMOKE = process.env.BENCH_SMOKE === "1";
const STORAGES = SMOKE ? 5 : 300;
const MEASUREMENTS = SMOKE ? 100 : 20_000;
const PLANKS_PER = SMOKE ? 3 : Number(process.env.BENCH_PLANKS_PER ?? 100);
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = SMOKE ? 1 : 5;

const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const mysqlName = `lumber_bench_${suffix}`;
const pgName = `lumber_jobs_bench_${suffix}`;
const mysqlUrl = `${MYSQL_ROOT}/${mysqlName}`;
const jobsUrl = `${PG_ROOT}/${pgName}`;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function seed(conn: Connection) {
  const rand = rng(11);
  const t0 = performance.now();
  await conn.query("SET FOREIGN_KEY_CHECKS = 0, UNIQUE_CHECKS = 0");
  const [org] = (await conn.query("INSERT INTO organizations (name, features) VALUES ('Bench Sawmill', '[]')")) as any;
  const orgId = org.insertId as number;
  const [user] = (await conn.query(
    "INSERT INTO users (email, name, recent_organization_id, verified_at, devices_updated_at) VALUES ('bench@example.test', 'Bench', ?, NOW(), NOW())",
    [orgId],
  )) as any;
  await conn.query(
    "INSERT INTO roles (user_id, organization_id, name, assignable_type, assignable_id) VALUES (?, ?, 'admin', 'Organization', ?)",
    [user.insertId, orgId, orgId],
  );
  const [st] = (await conn.query(
    "INSERT INTO storages (organization_id, name, latitude, longitude, storage_state_id) VALUES ?",
    [
      Array.from({ length: STORAGES }, (_, i) => [
        orgId,
        `Storage ${String(i + 1).padStart(3, "0")}`,
        57.5 + rand() * 2,
        22 + rand() * 6,
        1 + (i % 6),
      ]),
    ],
  )) as any;
  const firstStorage = st.insertId as number;
  const [pr] = (await conn.query(
    "INSERT INTO lumber_products (organization_id, name, plank_length, plank_width, plank_height) VALUES ?",
    [
      [
        [orgId, "Board 150x50", 4200, 150, 50],
        [orgId, "Batten 100x25", 3000, 100, 25],
        [orgId, "Beam 200x100", 6000, 200, 100],
      ],
    ],
  )) as any;
  const firstProduct = pr.insertId as number;
  const now = Date.now();
  const year = 365 * 86400_000;
  const BATCH = 2000;
  let planksDone = 0;
  for (let start = 0; start < MEASUREMENTS; start += BATCH) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(MEASUREMENTS, start + BATCH); i++) {
      const taken = new Date(now - rand() * year);
      rows.push([
        orgId,
        firstStorage + Math.floor(rand() * STORAGES),
        firstProduct + (i % 3),
        taken,
        i % 2,
        PLANKS_PER,
        PLANKS_PER * 0.0315,
        1,
        `{"lot":"L-${i % 50}"}`,
      ]);
    }
    const [res] = (await conn.query(
      "INSERT INTO lumber_measurements (organization_id, storage_id, lumber_product_id, taken_at, measurement_type_id, plank_count, volume, photo_status, custom_fields) VALUES ?",
      [rows],
    )) as any;
    const firstId = res.insertId as number;
    let plankRows: unknown[][] = [];
    for (let m = 0; m < rows.length; m++) {
      for (let k = 0; k < PLANKS_PER; k++) {
        plankRows.push([orgId, firstId + m, (k % 10) * 150, Math.floor(k / 10) * 50, 150, 50]);
        if (plankRows.length >= 10_000) {
          await conn.query(
            "INSERT INTO planks (organization_id, lumber_measurement_id, x, y, width, height) VALUES ?",
            [plankRows],
          );
          planksDone += plankRows.length;
          plankRows = [];
        }
      }
    }
    if (plankRows.length) {
      await conn.query("INSERT INTO planks (organization_id, lumber_measurement_id, x, y, width, height) VALUES ?", [
        plankRows,
      ]);
      planksDone += plankRows.length;
    }
    process.stdout.write(`\rseeded ${Math.min(MEASUREMENTS, start + BATCH)} lumber measurements, ${planksDone} planks`);
  }
  await conn.query("SET FOREIGN_KEY_CHECKS = 1, UNIQUE_CHECKS = 1");
  await conn.query("ANALYZE TABLE lumber_measurements, planks, storages");
  // Every storage shared, as new storages are (their tokens are part of the filter call's answer).
  await conn.query("INSERT INTO public_links (organization_id, kind, record_id, token_hash, token_seed) VALUES ?", [
    Array.from({ length: STORAGES }, (_, i) => [
      orgId,
      "storage",
      firstStorage + i,
      randomBytes(32).toString("hex"),
      `bench-seed-${String(i).padStart(11, "0")}`,
    ]),
  ]);
  console.log(`\nseed: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { orgId, userId: user.insertId as number, firstStorage, firstProduct };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median: at(0.5), p95: at(0.95) };
}

async function time(fn: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return stats(times);
}

const fmt = (s: { median: number; p95: number }) => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`;
const ratio = (a: { median: number; p95: number }, b: { median: number; p95: number }) =>
  `median ratio ${(a.median / b.median).toFixed(2)}x, p95 ratio ${(a.p95 / b.p95).toFixed(2)}x`;

async function main() {
  await migrateAll({ mysqlUrl, jobsUrl });
  const conn = await createConnection({ uri: mysqlUrl, multipleStatements: false });
  const ids = await seed(conn);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: mysqlUrl,
    JOBS_DATABASE_URL: jobsUrl,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    APP_URL: base,
    MAP_TILE_URL: "none",
  } as NodeJS.ProcessEnv;
  const web: ChildProcess = spawn("node", ["server.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
  try {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/healthcheck`)).ok) break;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    process.env.DATABASE_URL = mysqlUrl;
    process.env.SESSION_SECRET = env.SESSION_SECRET;
    const { createSession } = await import("../app/models/session.server");
    const { commitSessionCookie } = await import("../app/utils/session.server");
    const { db } = await import("../app/utils/db.server");
    const api = await createSession(db(), { userId: ids.userId, kind: "api", ttlSeconds: 3600 });
    const webSession = await createSession(db(), { userId: ids.userId, kind: "web", ttlSeconds: 3600 });
    const cookie = (await commitSessionCookie(webSession.token, webSession.expiresAt)).split(";")[0];
    const auth = { Authorization: `Bearer ${api.token}` };

    const end = new Date();
    const start = new Date(end.getTime() - 91 * 86400_000);
    const d = (x: Date) => x.toISOString().slice(0, 10);
    const products = `${ids.firstProduct},${ids.firstProduct + 1}`;
    const filterQuery = `lumber_measurements=true&taken_at_start=${d(start)}&taken_at_end=${d(end)}&lumber_product_ids=${products}&storage_state_ids=1,2,3,4,5`;
    const startOfDay = new Date(`${d(start)}T00:00:00.000Z`);
    const endOfDay = new Date(`${d(end)}T23:59:59.999Z`);
    const WHERE = `lm.organization_id = ? AND lm.deleted_at IS NULL AND lm.taken_at >= ? AND lm.taken_at <= ? AND lm.lumber_product_id IN (${products})
      AND lm.storage_id IN (SELECT id FROM storages WHERE organization_id = lm.organization_id AND storage_state_id IN (1,2,3,4,5))`;
    const args = [ids.orgId, startOfDay, endOfDay];
    const [[count]] = (await conn.query(
      `SELECT COUNT(*) AS c FROM lumber_measurements lm WHERE ${WHERE}`,
      args,
    )) as any;
    console.log(`three-month range, two products, five states: ${count.c} lumber measurements of ${MEASUREMENTS}`);
    console.log(
      `machine load average (1 min) before timing: ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`,
    );

    const get = async (path: string, headers: Record<string, string>) => {
      // No redirects followed: a 302 to /login must fail the run, not time the login page.
      const r = await fetch(`${base}${path}`, { headers, redirect: "manual" });
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      return r.text();
    };
    const aggregate = () =>
      conn.query(
        `SELECT lm.storage_id, COUNT(*), SUM(lm.plank_count), SUM(lm.volume) FROM lumber_measurements lm WHERE ${WHERE} GROUP BY lm.storage_id`,
        args,
      );
    const idList = (c: Connection) =>
      c.query(`SELECT lm.id, lm.storage_id FROM lumber_measurements lm WHERE ${WHERE} ORDER BY lm.id`, args);

    const authOnly = await time(() => get(`/api/web_app/enabled_features`, auth));
    const filterApi = await time(() => get(`/api/web_app/dashboard_filter?${filterQuery}`, auth));
    const filterSql = await time(aggregate);
    const conn2 = await createConnection({ uri: mysqlUrl });
    const loadApi = await time(() =>
      get(`/api/web_app/dashboard_filter?${filterQuery}&measurements_included=true`, auth),
    );
    const loadSql = await time(() => Promise.all([aggregate(), idList(conn2)]));
    await conn2.end();
    const storageId = ids.firstStorage + 7;
    const page = await time(() => get(`/measurements/lumber`, { Cookie: cookie }));
    const pageOpen = await time(() => get(`/measurements/lumber?open=${storageId}&page=2`, { Cookie: cookie }));

    console.log(
      `\nGET /api/web_app/dashboard_filter?lumber_measurements=true   ${fmt(filterApi)}   (bare SQL aggregate: ${fmt(filterSql)}; ${ratio(filterApi, filterSql)})`,
    );
    console.log(
      `  …&measurements_included=true (the dashboard load)            ${fmt(loadApi)}   (bare SQL aggregate + id list: ${fmt(loadSql)}; ${ratio(loadApi, loadSql)})`,
    );
    console.log(
      `GET /api/web_app/enabled_features                              ${fmt(authOnly)}   (HTTP + Remix + signed-in context, no query of its own)`,
    );
    console.log(`GET /measurements/lumber (page)                                ${fmt(page)}`);
    console.log(`GET /measurements/lumber?open=…&page=2                         ${fmt(pageOpen)}`);
    await db().destroy();
  } finally {
    web.kill("SIGTERM");
    await conn.query(`DROP DATABASE IF EXISTS \`${mysqlName}\``);
    await conn.end();
    const client = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
