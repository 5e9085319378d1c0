/**
 * Export benchmark (issue 8): log_by_log_excel of 250,000 and 1,000,000 logs, made by the real
 * worker process (node build/worker.js) from its own MySQL and PostgreSQL databases. Prints the
 * time from enqueue to done and the worker's peak resident memory (VmHWM from /proc, plus RSS
 * sampled every 50 ms), beside writing the same rows as CSV from the same row stream (the floor:
 * what the query and the number conversion alone cost). Targets: 1M logs < 15 s, < 300 MB, and
 * memory flat as rows grow.
 *
 * Run: npm run build && npx tsx bench/exports-bench.ts [sizes, default 250000,1000000]
 * Needs MySQL and PostgreSQL as for the tests (TEST_MYSQL_URL / TEST_PG_URL or the defaults).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import { makeWorkerUtils } from "graphile-worker";
import { sql } from "kysely";
import { createConnection } from "mysql2/promise";
import { enqueueExportJob } from "~/services/jobs.server";
import { MYSQL_ROOT, SMOKE, benchDatabases } from "./lib";
import { roundHalfUp } from "../app/domain";
import { streamLogRows } from "../app/models/export-rows.server";
import { createExport } from "../app/models/export.server";
import { toUserVolume } from "../app/services/excel-reports.server";
import { createDb, type DB } from "../app/utils/db.server";

const sizes = (process.argv[2] ?? (SMOKE ? "400" : "250000,1000000")).split(",").map(Number);
const LOGS_PER_MEASUREMENT = 200;

const storageDir = `/tmp/timber-bench-exports-${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;

function procStatus(pid: number) {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(text.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
}
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

async function seed(
  db: DB,
  org: { organizationId: number; storageIds: number[]; assortments: number[]; cullId: number },
  from: number,
  to: number,
) {
  // Measurements of LOGS_PER_MEASUREMENT logs each, inserted as raw multi-row statements (numbers only).
  const measurements = Math.ceil((to - from) / LOGS_PER_MEASUREMENT);
  for (let i = 0; i < measurements; i++) {
    const r = await db
      .insertInto("measurements")
      .values({
        organization_id: org.organizationId,
        storage_id: org.storageIds[i % org.storageIds.length],
        taken_at: new Date(Date.now() - i * 60_000),
        log_length: 4,
        logs_count: 0,
        volume: 0,
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    const n = Math.min(LOGS_PER_MEASUREMENT, to - from - i * LOGS_PER_MEASUREMENT);
    const values: string[] = [];
    let volume = 0;
    for (let k = 0; k < n; k++) {
      const d = 12 + ((i * 7 + k * 13) % 300) / 10;
      const v = (Math.PI / 4) * (d / 100) ** 2 * 4;
      volume += v;
      const assortment = k % 20 === 0 ? "NULL" : String(org.assortments[k % 2]);
      const cull = k % 20 === 0 ? String(org.cullId) : "NULL";
      values.push(
        `(${org.organizationId},${id},${(k % 20) * 60 + 30},${Math.floor(k / 20) * 60 + 30},${d * 2},${d},${v},${assortment},${cull})`,
      );
    }
    await sql
      .raw(
        `INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v, assortment_id, cull_id) VALUES ${values.join(",")}`,
      )
      .execute(db);
    await db.updateTable("measurements").set({ logs_count: n, volume }).where("id", "=", id).execute();
  }
}

async function csvFloor(db: DB, organizationId: number) {
  const file = `${storageDir}/floor.csv`;
  const out = fs.createWriteStream(file);
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  let rows = 0;
  let lines = "";
  for await (const r of streamLogRows(db, { organizationId }, {})) {
    const v = roundHalfUp(toUserVolume(r.v, r.volume_formula, "m^3", r.coefficient), 3);
    lines += `${JSON.stringify(r.storage_name)},${r.measurement_id},${r.taken_at.toISOString()},${r.log_id},${roundHalfUp(r.d, 1)},${r.log_length},${v},${r.assortment_name ?? ""},${r.cull_reason ?? ""}\n`;
    if (++rows % 2000 === 0) {
      if (!out.write(lines)) await once(out, "drain");
      lines = "";
    }
  }
  out.end(lines);
  await once(out, "close");
  clearInterval(timer);
  return { rows, ms: performance.now() - t0, peak, size: fs.statSync(file).size };
}

async function main() {
  if (!fs.existsSync("build/worker.js")) throw new Error("run `npm run build` first (the bench runs the built worker)");
  const { mysqlUrl, jobsUrl, drop } = await benchDatabases("exports");
  fs.mkdirSync(storageDir, { recursive: true });
  const db = createDb(mysqlUrl, 4);
  const worker = spawn("node", ["build/worker.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: mysqlUrl,
      JOBS_DATABASE_URL: jobsUrl,
      STORAGE_DIR: storageDir,
      WORKER_CONCURRENCY: "1",
      SESSION_SECRET: randomBytes(32).toString("hex"),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const utils = await makeWorkerUtils({ connectionString: jobsUrl });
  try {
    await new Promise<void>((resolve) =>
      worker.stdout!.on("data", (c: Buffer) => c.toString().includes("worker: running") && resolve()),
    );
    const orgId = Number(
      (await db.insertInto("organizations").values({ name: "Bench Forest", features: "[]" }).executeTakeFirstOrThrow())
        .insertId,
    );
    const userId = Number(
      (
        await db
          .insertInto("users")
          .values({ email: "bench@example.test", name: "Bench", recent_organization_id: orgId, rounding_precision: 3 })
          .executeTakeFirstOrThrow()
      ).insertId,
    );
    const storageIds: number[] = [];
    for (const name of ["North landing", "River yard", "Hill stack"]) {
      storageIds.push(
        Number(
          (await db.insertInto("storages").values({ organization_id: orgId, name }).executeTakeFirstOrThrow()).insertId,
        ),
      );
    }
    const assortments: number[] = [];
    for (const name of ["Spruce sawlog A", "Pine pulpwood"]) {
      assortments.push(
        Number(
          (await db.insertInto("assortments").values({ organization_id: orgId, name }).executeTakeFirstOrThrow())
            .insertId,
        ),
      );
    }
    const cullId = Number(
      (await db.insertInto("culls").values({ organization_id: orgId, reason: "Rot" }).executeTakeFirstOrThrow())
        .insertId,
    );

    console.log(`worker pid ${worker.pid}, idle RSS ${mb(procStatus(worker.pid!).rss)}`);
    console.log(
      "logs      | xlsx time | worker peak RSS (VmHWM / sampled) | xlsx size | csv floor time | csv floor RSS | csv size",
    );
    let seeded = 0;
    for (const size of sizes) {
      const s0 = performance.now();
      await seed(db, { organizationId: orgId, storageIds, assortments, cullId }, seeded, size);
      seeded = size;
      process.stderr.write(`seeded ${size} logs in ${Math.round(performance.now() - s0)} ms\n`);

      const row = await createExport(
        db,
        { organizationId: orgId, userId },
        { kind: "excel", reportType: "log_by_log_excel", name: `Bench ${size}`, params: {} },
      );
      let sampled = 0;
      const t0 = performance.now();
      await enqueueExportJob("excel", row.id, utils.addJob);
      let done;
      for (;;) {
        sampled = Math.max(sampled, procStatus(worker.pid!).rss);
        done = await db.selectFrom("exports").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
        if (done.status !== 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const ms = performance.now() - t0;
      const hwm = procStatus(worker.pid!).hwm;
      if (done.status !== 1) throw new Error(`export ended with status ${done.status}: ${done.status_detail}`);
      const floor = await csvFloor(db, orgId);
      console.log(
        `${String(done.row_count).padEnd(9)} | ${(ms / 1000).toFixed(1).padStart(7)} s | ${mb(hwm).padStart(7)} / ${mb(sampled).padEnd(22)} | ${mb(done.file_size ?? 0).padStart(9)} | ${(floor.ms / 1000).toFixed(1).padStart(12)} s | ${mb(floor.peak).padStart(13)} | ${mb(floor.size)}`,
      );
    }
  } finally {
    worker.kill("SIGTERM");
    await once(worker, "exit").catch(() => {});
    await utils.release();
    await db.destroy();
    const conn = await createConnection({ uri: MYSQL_ROOT });
    await drop(conn);
    await conn.end();
    fs.rmSync(storageDir, { recursive: true, force: true });
  }
}

await main();
