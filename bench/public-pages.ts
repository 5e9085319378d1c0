/**
 * Public pages benchmark (issue 15). Seeds its own databases with one shared measurement of 2,000
 * logs on a 12-megapixel photo (4000 × 3000, drawn, with the product's renditions) in a shared
 * storage, starts the built web server and prints median and p95 times of:
 *   - GET /api/web_app/measurements/public/{token} vs the bare SQL it rests on (the measurement,
 *     its logs and references, the organisation's lookups, the grant and the rate count),
 *   - the /public_measurement/{token} and /public_storage/{token} pages (server response),
 *   - /public_measurement/{token}.jpeg: the first request (drawn with sharp) and the next ones
 *     (the stored picture),
 *   - the rate count alone (one INSERT … ON DUPLICATE KEY UPDATE per public request).
 * Run: npm run build && npx tsx bench/public-pages.ts   (needs MySQL and PostgreSQL as for the tests)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createConnection } from "mysql2/promise";
import pg from "pg";
import { migrateAll } from "../db/migrate-lib";

const MYSQL_ROOT = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const PG_ROOT = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
// BENCH_SMOKE=1: a tiny size that only proves the benchmark still runs (npm test runs it; no figures asserted).
const SMOKE = process.env.BENCH_SMOKE === "1";
const LOGS = SMOKE ? 50 : 2000;
const SIZE = SMOKE ? { width: 1000, height: 750, pxPerCm: 1 } : { width: 4000, height: 3000, pxPerCm: 2.5 };
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = SMOKE ? 1 : 5;

const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const mysqlName = `timber_public_bench_${suffix}`;
const pgName = `timber_jobs_public_bench_${suffix}`;

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

async function main() {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), "public-bench-"));
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
  const { layoutStack, renderStackJpeg } = await import("../db/seed/stack-photo");
  const { computeMeasurementLogs } = await import("../app/domain/measurement-logs");
  const { storeOriginalPhoto, makeRenditions } = await import("../app/services/photos.server");
  const { fileStorage } = await import("../app/services/file-storage.server");
  const { createPublicLink, publicLinkOf } = await import("../app/models/public-link.server");
  const conn = await createConnection({ uri: mysqlUrl });
  let web: ChildProcess | null = null;
  try {
    const t0 = performance.now();
    const org = await db()
      .insertInto("organizations")
      .values({ name: "Bench Forest", features: "[]" })
      .executeTakeFirstOrThrow();
    const orgId = Number(org.insertId);
    const st = await db()
      .insertInto("storages")
      .values({ organization_id: orgId, name: "Bench yard", latitude: 58.38, longitude: 26.72 })
      .executeTakeFirstOrThrow();
    const storageId = Number(st.insertId);
    let stack = layoutStack(11, { ...SIZE, minCm: 14, maxCm: 34 });
    if (stack.logs.length < LOGS) throw new Error(`layout gave ${stack.logs.length} logs, need ${LOGS}`);
    stack = { ...stack, logs: stack.logs.slice(0, LOGS) };
    const computed = computeMeasurementLogs(stack.logs, {
      references: [stack.reference],
      formula: "cylinder",
      lengthM: 3,
    });
    const m = await db()
      .insertInto("measurements")
      .values({
        organization_id: orgId,
        storage_id: storageId,
        taken_at: new Date(),
        log_length: 3,
        logs_count: computed.logsCount,
        volume: computed.volume,
        volume_formula: "cylinder",
        wood_type_id: 2,
      })
      .executeTakeFirstOrThrow();
    const measurementId = Number(m.insertId);
    await db()
      .insertInto("logs")
      .values(
        computed.logs.map((l) => ({
          organization_id: orgId,
          measurement_id: measurementId,
          x: l.x,
          y: l.y,
          r: l.r,
          d: l.d,
          v: l.v,
        })),
      )
      .execute();
    await db()
      .insertInto("measurement_references")
      .values({ organization_id: orgId, measurement_id: measurementId, ...stack.reference })
      .execute();
    await storeOriginalPhoto(db(), fileStorage(), "timber", {
      organizationId: orgId,
      measurementId,
      data: await renderStackJpeg(stack, 11),
      fileName: "bench.jpg",
    });
    await makeRenditions(db(), fileStorage(), "timber", measurementId);
    const maker = { organizationId: orgId, timeZone: "Europe/Tallinn" };
    await createPublicLink(db(), maker, "measurement", measurementId);
    await createPublicLink(db(), maker, "storage", storageId);
    const token = (await publicLinkOf(db(), { organizationId: orgId }, "measurement", measurementId))!.token!;
    const storageToken = (await publicLinkOf(db(), { organizationId: orgId }, "storage", storageId))!.token!;
    console.log(
      `seeded ${LOGS} logs on a ${stack.width} × ${stack.height} photo in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    web = spawn("node", ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: base,
        // Every timed request counts against the one address of this process; none may be refused.
        PUBLIC_RATE_LIMIT: "1000000",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    for (let i = 0; i < 400; i++) {
      try {
        if ((await fetch(`${base}/healthcheck`)).ok) break;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    console.log(
      `machine load average (1 min) before timing: ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`,
    );
    const get = async (p: string) => {
      const r = await fetch(`${base}${p}`, { redirect: "manual" });
      if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
      return r.arrayBuffer();
    };

    // The picture: the first request draws it, the next ones read the stored one.
    const first = performance.now();
    const picture = await get(`/public_measurement/${token}.jpeg`);
    const firstPicture = performance.now() - first;
    const cachedPicture = await time(() => get(`/public_measurement/${token}.jpeg`));

    const json = await time(() => get(`/api/web_app/measurements/public/${token}`));
    const hash = (await import("node:crypto")).createHash("sha256").update(token).digest("hex");
    const bare = await time(() =>
      Promise.all([
        conn.query(
          "SELECT l.*, o.name, o.vmu_enabled FROM public_links l JOIN organizations o ON o.id = l.organization_id WHERE l.token_hash = ?",
          [hash],
        ),
        conn.query("SELECT * FROM measurements WHERE id = ? AND organization_id = ?", [measurementId, orgId]),
        conn.query("SELECT * FROM logs WHERE measurement_id = ? AND organization_id = ? ORDER BY id", [
          measurementId,
          orgId,
        ]),
        conn.query("SELECT * FROM measurement_references WHERE measurement_id = ? AND organization_id = ?", [
          measurementId,
          orgId,
        ]),
        conn.query("SELECT * FROM assortments WHERE organization_id IS NULL OR organization_id = ?", [orgId]),
      ]),
    );
    const count = await time(() =>
      conn.query(
        "INSERT INTO public_rate_limits (client, window_start, hits) VALUES ('bench', 1, 1) ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(hits + 1)",
      ),
    );
    const page = await time(() => get(`/public_measurement/${token}`));
    const storagePage = await time(() => get(`/public_storage/${storageToken}`));

    console.log(`\nGET /api/web_app/measurements/public/{token}  ${fmt(json)}`);
    console.log(
      `  its bare SQL (grant, measurement, ${LOGS} logs, references, assortments): ${fmt(bare)}; median ratio ${(json.median / bare.median).toFixed(2)}x`,
    );
    console.log(`GET /public_measurement/{token} (page)         ${fmt(page)}`);
    console.log(`GET /public_storage/{token} (page)             ${fmt(storagePage)}`);
    console.log(
      `GET /public_measurement/{token}.jpeg           first (drawn): ${firstPicture.toFixed(0)} ms; stored: ${fmt(cachedPicture)}; ${(picture.byteLength / 1024).toFixed(0)} kB`,
    );
    console.log(`the rate count statement alone               ${fmt(count)}`);
    await db().destroy();
  } finally {
    web?.kill("SIGTERM");
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
