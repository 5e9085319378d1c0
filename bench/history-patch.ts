/**
 * The PATCH of a measurement through its model, history included (docs/decisions/024-trust.md):
 * seeds its own databases and prints median and p95 of
 *   - a container measurement of LOGS logs: one log resized (logs, the JAS figures and the volume
 *     recomputed, the history line with the logs compared), and a comment alone (row only);
 *   - a timber measurement of LOGS logs: one log resized.
 * Each is a whole patchContainerMeasurement / patchMeasurement call (open the row, snapshot,
 * validate, write, recompute, record the history, read the row back), one transaction each.
 * Run: npx tsx bench/history-patch.ts   (needs MySQL and PostgreSQL as for the tests)
 * BENCH_LOGS sets the logs per measurement (100), BENCH_RUNS the timed runs (100).
 */
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { insertContainerMeasurement, patchContainerMeasurement } from "~/models/container-measurement.server";
import { patchMeasurement } from "~/models/timber.server";
import type { AuthContext } from "~/utils/auth-context";
import { SMOKE, benchDatabases, stats } from "./lib";
import { createDb } from "../app/utils/db.server";

const LOGS = SMOKE ? 10 : Number(process.env.BENCH_LOGS ?? 100);
const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 100);
const WARMUP = SMOKE ? 1 : 5;

async function time(runs: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(WARMUP + i);
    times.push(performance.now() - t);
  }
  return stats(times);
}

const fmt = (s: { median: number; p95: number }) => `median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`;

async function main() {
  const dbs = await benchDatabases("history_patch");
  const db = createDb(dbs.mysqlUrl, 4);
  try {
    const org = await db
      .insertInto("organizations")
      .values({ name: "Bench Forest", features: '["container_measurements"]' })
      .executeTakeFirstOrThrow();
    const orgId = Number(org.insertId);
    const storage = await db
      .insertInto("storages")
      .values({ organization_id: orgId, name: "Bench yard" })
      .executeTakeFirstOrThrow();
    const storageId = Number(storage.insertId);
    // An admin of the organisation, as the session would make it (no user row: the history's
    // user_id is only the actor).
    const ctx = {
      organizationId: orgId,
      roles: [{ name: "admin", assignable_type: "Organization", assignable_id: orgId }],
    } as unknown as AuthContext;
    const xy = (i: number) => ({ x: 50 + (i % 10) * 80, y: 50 + Math.floor(i / 10) * 80 });

    // ---- container ----
    const containerId = await insertContainerMeasurement(
      db,
      { organizationId: orgId },
      {
        storage_id: storageId,
        container_id: null,
        taken_at: new Date(),
        log_length: 4,
        locked_at: null,
        comment: null,
        logs: Array.from({ length: LOGS }, (_, i) => ({ ...xy(i), r: 30 })),
        references: [{ x1: 0, y1: 0, x2: 400, y2: 0, size: 1 }],
      },
    );
    const firstContainerLog = await db
      .selectFrom("container_measurement_logs")
      .select(db.fn.min("id").as("id"))
      .where("container_measurement_id", "=", containerId)
      .executeTakeFirstOrThrow();
    const containerLogs = await time(RUNS, (i) =>
      patchContainerMeasurement(db, ctx, containerId, {
        logs: [{ id: Number(firstContainerLog.id), r: 30 + (i % 7) }],
      }),
    );
    const containerComment = await time(RUNS, (i) =>
      patchContainerMeasurement(db, ctx, containerId, { comment: `run ${i}` }),
    );

    // ---- timber ----
    const m = await db
      .insertInto("measurements")
      .values({
        organization_id: orgId,
        storage_id: storageId,
        taken_at: new Date(),
        log_length: 3,
        logs_count: LOGS,
        volume: LOGS * 0.1,
        volume_formula: "cylinder",
      })
      .executeTakeFirstOrThrow();
    const timberId = Number(m.insertId);
    await db
      .insertInto("logs")
      .values(
        Array.from({ length: LOGS }, (_, i) => ({
          organization_id: orgId,
          measurement_id: timberId,
          ...xy(i),
          r: 30,
          d: 20,
          v: 0.1,
        })),
      )
      .execute();
    await db
      .insertInto("measurement_references")
      .values({ organization_id: orgId, measurement_id: timberId, x1: 0, y1: 0, x2: 400, y2: 0, size: 1 })
      .execute();
    const firstLog = await db
      .selectFrom("logs")
      .select(db.fn.min("id").as("id"))
      .where("measurement_id", "=", timberId)
      .executeTakeFirstOrThrow();
    const timberLogs = await time(RUNS, (i) =>
      patchMeasurement(db, ctx, timberId, { logs: [{ id: Number(firstLog.id), r: 30 + (i % 7) }] }),
    );

    const written = await db
      .selectFrom("measurement_history")
      .select(["kind", db.fn.countAll<number>().as("n")])
      .groupBy("kind")
      .execute();
    console.log(`PATCH through the model, ${LOGS} logs, ${RUNS} runs (history rows: ${JSON.stringify(written)})`);
    console.log(`  container, one log resized: ${fmt(containerLogs)}`);
    console.log(`  container, comment only:    ${fmt(containerComment)}`);
    console.log(`  timber, one log resized:    ${fmt(timberLogs)}`);
  } finally {
    await dbs.drop({ query: (statement) => sql.raw(statement).execute(db) }).catch(() => undefined);
    await db.destroy();
  }
}

await main();
