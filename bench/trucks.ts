/**
 * Trucks benchmark (issue 21). Seeds its own databases and prints median and p95 of:
 *   - the truck dashboard's storages aggregate (truckDashboardStorages, what /measurements/truck
 *     runs) over 100,000 truck measurements in 20 storages, against its bare grouped SQL;
 *   - checkpoint ingest against the built web server: 500 simulated trucks, each posting one
 *     checkpoint every 5 s for 2 minutes to POST /api/device/truck_routes/{id}/checkpoints
 *     (latency per request, errors), and the time from sending a checkpoint to its
 *     `checkpoint-created` event arriving at a page subscribed over the built-in SSE.
 * Run: npm run build && npx tsx bench/trucks.ts   (needs MySQL and PostgreSQL as for the tests)
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createConnection } from "mysql2/promise";
import { SMOKE, benchDatabases, fmt, httpClient, machineLoad, startWeb, stats, time as timeRuns } from "./lib";

const MEASUREMENTS = SMOKE ? 500 : Number(process.env.BENCH_TRUCK_MEASUREMENTS ?? 100_000);
const STORAGES = 20;
const TRUCKS = SMOKE ? 10 : Number(process.env.BENCH_TRUCKS ?? 500);
const INTERVAL_MS = SMOKE ? 500 : 5000;
const DURATION_MS = SMOKE ? 1500 : Number(process.env.BENCH_DURATION_MS ?? 120_000);
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = SMOKE ? 1 : 5;

const time = (fn: () => Promise<unknown>) => timeRuns(fn, { runs: RUNS, warmup: WARMUP });

async function main() {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), "trucks-bench-"));
  const dbs = await benchDatabases("trucks");
  Object.assign(process.env, {
    DATABASE_URL: dbs.mysqlUrl,
    JOBS_DATABASE_URL: dbs.jobsUrl,
    STORAGE_DIR: storageDir,
    SESSION_SECRET: randomBytes(32).toString("hex"),
  });
  const { db } = await import("../app/utils/db.server");
  const { truckVolume } = await import("../app/domain/truck");
  const { truckDashboardStorages } = await import("../app/models/truck.server");
  const { createDevice, createOrganization, createStorage, createUser, webCookie } = await import("../tests/factories");
  const conn = await createConnection({ uri: dbs.mysqlUrl });
  let web: Awaited<ReturnType<typeof startWeb>> | null = null;
  const phones: Array<ReturnType<typeof httpClient>> = [];
  try {
    const t0 = performance.now();
    const org = await createOrganization({ name: "Bench Haulage", features: ["truck_detection"] });
    const storageIds: number[] = [];
    for (let s = 0; s < STORAGES; s++) storageIds.push((await createStorage(org.id, { name: `Gate ${s}` })).id);
    const truck = await db()
      .insertInto("trucks")
      .values({ organization_id: org.id, license_plate: "BENCH-1" })
      .executeTakeFirstOrThrow();
    const truckId = Number(truck.insertId);
    const now = Date.now();
    for (let i = 0; i < MEASUREMENTS; i += 2000) {
      const rows = Array.from({ length: Math.min(2000, MEASUREMENTS - i) }, (_, k) => {
        const n = i + k;
        const v = truckVolume([
          { heightM: 2 + (n % 7) / 10, loadWidthM: 2.45, logLengthM: 3 + (n % 3), coefficient: 0.65 },
          { heightM: 1.8 + (n % 5) / 10, loadWidthM: 2.45, logLengthM: 3 + (n % 3), coefficient: 0.68 },
        ]);
        return {
          organization_id: org.id,
          storage_id: storageIds[n % STORAGES],
          truck_id: truckId,
          taken_at: new Date(now - n * 60_000),
          load_count: 2,
          stacked_volume: v.stackedM3,
          volume: v.solidM3,
          // Every 50th deleted: the aggregate must skip them.
          deleted_at: n % 50 === 0 ? new Date() : null,
        };
      });
      await db().insertInto("truck_measurements").values(rows).execute();
    }
    await conn.query("ANALYZE TABLE truck_measurements");
    console.log(`seeded ${MEASUREMENTS} truck measurements in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(machineLoad());

    const ctx = { organizationId: org.id };
    const dashboard = await time(() => truckDashboardStorages(db(), ctx, {}));
    const bare = await time(() =>
      Promise.all([
        conn.query("SELECT id, name FROM storages WHERE organization_id = ? AND deleted_at IS NULL ORDER BY name, id", [
          org.id,
        ]),
        conn.query(
          "SELECT storage_id, COUNT(*), SUM(load_count), SUM(volume) FROM truck_measurements WHERE organization_id = ? AND deleted_at IS NULL GROUP BY storage_id",
          [org.id],
        ),
      ]),
    );
    console.log(`truck dashboard aggregate (${MEASUREMENTS} measurements)  ${fmt(dashboard)}`);
    console.log(`its bare SQL                                       ${fmt(bare)}`);
    console.log(`ratio (p95)                                        ${(dashboard.p95 / bare.p95).toFixed(2)}×`);

    // ---- checkpoint ingest against the built server ----
    const device = await createDevice(org.id);
    const viewer = await createUser(org.id, { role: "viewer" });
    const cookie = await webCookie(viewer.id);
    const measurementRows = await db()
      .selectFrom("truck_measurements")
      .select("id")
      .where("organization_id", "=", org.id)
      .where("deleted_at", "is", null)
      .limit(TRUCKS)
      .execute();
    const startedAt = new Date(now - 3600_000);
    const routeIds: number[] = [];
    for (const m of measurementRows) {
      const r = await db()
        .insertInto("truck_routes")
        .values({ organization_id: org.id, truck_measurement_id: m.id, client_id: `r${m.id}`, started_at: startedAt })
        .executeTakeFirstOrThrow();
      routeIds.push(Number(r.insertId));
    }

    // The web server gets the session secret the viewer's cookie was signed with (STORAGE_DIR and
    // the databases come with process.env).
    web = await startWeb({ ...dbs, env: { SESSION_SECRET: process.env.SESSION_SECRET } });
    const base = web.base;

    // The subscribed page: the organisation's SSE channel, as the live map opens it.
    const sentAt = new Map<string, number>();
    const delivery: number[] = [];
    const controller = new AbortController();
    const sse = await fetch(`${base}/realtime?channel=organization:${org.id}`, {
      headers: { Cookie: cookie },
      signal: controller.signal,
    });
    const ready = (async () => {
      const reader = sse.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let signalReady: () => void = () => {};
      const opened = new Promise<void>((r) => (signalReady = r));
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let idx: number;
            while ((idx = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, idx);
              buffer = buffer.slice(idx + 2);
              const name = /^event: (.+)$/m.exec(block)?.[1];
              const data = /^data: (.+)$/m.exec(block)?.[1];
              if (name === "ready") signalReady();
              else if (name === "checkpoint-created" && data) {
                const c = JSON.parse(data).checkpoint as { truck_route_id: number; recorded_at: string };
                const key = `${c.truck_route_id}|${c.recorded_at}`;
                const t = sentAt.get(key);
                if (t !== undefined) delivery.push(performance.now() - t);
              }
            }
          }
        } catch {
          // aborted at the end
        }
      })();
      return opened;
    })();
    await await ready;

    const ingest: number[] = [];
    let errors = 0;
    const rounds = Math.max(1, Math.floor(DURATION_MS / INTERVAL_MS));
    const truckLoop = async (routeId: number, index: number) => {
      // Each truck its own keep-alive connection, as each phone has its own.
      const phone = httpClient(base);
      phones.push(phone);
      // Spread the trucks over the interval, as real phones are.
      await new Promise((r) => setTimeout(r, (index / TRUCKS) * INTERVAL_MS));
      for (let round = 0; round < rounds; round++) {
        const due = performance.now() + INTERVAL_MS;
        const recorded = new Date(startedAt.getTime() + (round + 1) * INTERVAL_MS).toISOString();
        const body = JSON.stringify({
          checkpoints: [
            {
              client_id: `c${round}`,
              latitude: 58 + index / 1000 + round / 10_000,
              longitude: 25 + round / 10_000,
              recorded_at: recorded,
              speed: 70,
            },
          ],
        });
        const t = performance.now();
        sentAt.set(`${routeId}|${recorded}`, t);
        try {
          const r = await phone.request("POST", `/api/device/truck_routes/${routeId}/checkpoints`, {
            headers: { Authorization: `Bearer ${device.token}`, "Content-Type": "application/json" },
            body,
          });
          if (r.status !== 200) errors += 1;
        } catch {
          errors += 1;
        }
        ingest.push(performance.now() - t);
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    };
    // The web server's own CPU time over the run (Linux): what one request costs it, whatever
    // the machine's load does to the latency.
    const cpuMs = async () => {
      try {
        const stat = (await readFile(`/proc/${web!.process.pid}/stat`, "utf8")).split(") ")[1].split(" ");
        return ((Number(stat[11]) + Number(stat[12])) * 1000) / 100; // utime + stime, 100 ticks/s
      } catch {
        return NaN;
      }
    };
    const cpuBefore = await cpuMs();
    const tIngest = performance.now();
    await Promise.all(routeIds.map((id, i) => truckLoop(id, i)));
    const cpuAfter = await cpuMs();
    // Let the last events arrive.
    await new Promise((r) => setTimeout(r, 1000));
    controller.abort();
    const sent = routeIds.length * rounds;
    const stored = await conn.query("SELECT COUNT(*) AS c FROM truck_checkpoints");
    console.log(
      `checkpoint ingest: ${routeIds.length} trucks x ${rounds} rounds every ${INTERVAL_MS / 1000} s (${((performance.now() - tIngest) / 1000).toFixed(0)} s): ${sent} requests, ${errors} errors, ${(stored[0] as Array<{ c: number }>)[0].c} stored`,
    );
    console.log(`  ingest latency                                   ${fmt(stats(ingest))}`);
    console.log(
      `  web server CPU per request                       ${((cpuAfter - cpuBefore) / sent).toFixed(2)} ms (${(((cpuAfter - cpuBefore) / (performance.now() - tIngest)) * 100).toFixed(0)}% of a core)`,
    );
    console.log(
      `  ingest → SSE event on a subscribed page           ${fmt(stats(delivery))} (${delivery.length} of ${sent} events timed)`,
    );
    await db().destroy();
  } finally {
    for (const phone of phones) phone.close();
    await web?.stop();
    await dbs.drop(conn);
    await conn.end();
    await rm(storageDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
