/**
 * History benchmark (issue 24, docs/decisions/024-trust.md). Seeds its own databases and prints
 * median and p95 of:
 *   - an edit of a timber measurement of 100 logs (one log resized, the volume stored; in one
 *     transaction with the row opened FOR UPDATE, as a PATCH does) without and with its history
 *     row (snapshotMeasurements + recordHistory: snapshot of the row and its logs and references,
 *     the field-level diff, the chain's last hash read with a lock, the hashed insert), and their
 *     ratio;
 *   - verifying a measurement's hash chain of 10,000 entries (verifyHistoryChain: read and
 *     recompute every SHA-256) against the bare SELECT of the same rows, and their ratio.
 * Run: npx tsx bench/history.ts   (needs MySQL and PostgreSQL as for the tests)
 * BENCH_HISTORY_ENTRIES sets the chain's length, BENCH_RUNS the timed runs.
 */
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import {
  historyHash,
  recordHistory,
  snapshotMeasurements,
  verifyHistoryChain,
} from "~/models/measurement-history.server";
import { SMOKE, benchDatabases, ratio, stats, type Stats } from "./lib";
import { createDb } from "../app/utils/db.server";

const LOGS = SMOKE ? 10 : 100;
const ENTRIES = SMOKE ? 200 : Number(process.env.BENCH_HISTORY_ENTRIES ?? 10_000);
const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 200);
const VERIFY_RUNS = SMOKE ? 2 : Math.max(5, Math.round(RUNS / 10));
const WARMUP = SMOKE ? 1 : 10;

async function time(runs: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return stats(times);
}

// Two decimals: these calls take a few milliseconds.
const fmt = (s: Stats) => `median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`;

async function main() {
  const dbs = await benchDatabases("history");
  const db = createDb(dbs.mysqlUrl, 4);
  try {
    const org = await db
      .insertInto("organizations")
      .values({ name: "Bench Forest", features: "[]" })
      .executeTakeFirstOrThrow();
    const orgId = Number(org.insertId);
    const ctx = { organizationId: orgId };
    const storage = await db
      .insertInto("storages")
      .values({ organization_id: orgId, name: "Bench yard" })
      .executeTakeFirstOrThrow();
    const newMeasurement = async () => {
      const m = await db
        .insertInto("measurements")
        .values({
          organization_id: orgId,
          storage_id: Number(storage.insertId),
          taken_at: new Date(),
          log_length: 3,
          logs_count: LOGS,
          volume: LOGS * 0.1,
        })
        .executeTakeFirstOrThrow();
      const id = Number(m.insertId);
      await db
        .insertInto("logs")
        .values(
          Array.from({ length: LOGS }, (_, i) => ({
            organization_id: orgId,
            measurement_id: id,
            x: 50 + (i % 10) * 80,
            y: 50 + Math.floor(i / 10) * 80,
            r: 30,
            d: 20,
            v: 0.1,
          })),
        )
        .execute();
      await db
        .insertInto("measurement_references")
        .values({ organization_id: orgId, measurement_id: id, x1: 0, y1: 0, x2: 400, y2: 0, size: 1 })
        .execute();
      return id;
    };

    // ---- an edit, without and with its history row ----
    const bareId = await newMeasurement();
    const histId = await newMeasurement();
    const edit = async (id: number, i: number, withHistory: boolean) =>
      db.transaction().execute(async (trx) => {
        await trx
          .selectFrom("measurements")
          .selectAll()
          .where("id", "=", id)
          .where("organization_id", "=", orgId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const before = withHistory ? await snapshotMeasurements(trx, ctx, "timber", [id]) : null;
        const r = 30 + (i % 7);
        await sql`UPDATE logs SET r = ${r}, d = ${r * 0.66}, v = ${0.1 + (i % 7) / 100}
          WHERE measurement_id = ${id} AND id = (SELECT MIN(id) FROM logs WHERE measurement_id = ${id})`.execute(trx);
        await trx
          .updateTable("measurements")
          .set({ volume: LOGS * 0.1 + (i % 7) / 100, updated_at: new Date() })
          .where("id", "=", id)
          .execute();
        if (before) await recordHistory(trx, ctx, { userId: null }, "timber", "edited", before);
      });
    const bare = await time(RUNS, (i) => edit(bareId, i, false));
    const withHistory = await time(RUNS, (i) => edit(histId, i, true));
    const written = await db
      .selectFrom("measurement_history")
      .select(db.fn.countAll<number>().as("n"))
      .where("measurement_id", "=", histId)
      .executeTakeFirstOrThrow();
    console.log(`edit of a measurement of ${LOGS} logs, ${RUNS} runs (${Number(written.n)} history rows written)`);
    console.log(`  without history: ${fmt(bare)}`);
    console.log(`  with history:    ${fmt(withHistory)}`);
    console.log(
      `  history costs ${(withHistory.median - bare.median).toFixed(2)} ms per edit (median); ${ratio(withHistory, bare)}`,
    );

    // ---- verifying a chain of ENTRIES entries ----
    const chainId = await newMeasurement();
    const t0 = performance.now();
    let prev: string | null = null;
    const start = Date.now() - ENTRIES * 1000;
    for (let i = 0; i < ENTRIES; i += 1000) {
      const rows = [];
      for (let k = i; k < Math.min(ENTRIES, i + 1000); k++) {
        const content = {
          organization_id: orgId,
          kind: "timber",
          measurement_id: chainId,
          action: "edited",
          at: new Date(start + k * 1000),
          volume_before: 10 + k / 1000,
          volume_after: 10 + (k + 1) / 1000,
          changes: JSON.stringify({
            fields: { volume: { before: 10 + k / 1000, after: 10 + (k + 1) / 1000 } },
            logs: { added: 0, removed: 0, changed: 1, added_ids: [], removed_ids: [], changed_ids: [k] },
          }),
        };
        const hash = historyHash(prev, content);
        rows.push({ ...content, prev_hash: prev, hash, user_id: null, device_id: null });
        prev = hash;
      }
      await db.insertInto("measurement_history").values(rows).execute();
    }
    console.log(`chain of ${ENTRIES} entries seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const bareRead = await time(VERIFY_RUNS, () =>
      db
        .selectFrom("measurement_history")
        .selectAll()
        .where("organization_id", "=", orgId)
        .where("kind", "=", "timber")
        .where("measurement_id", "=", chainId)
        .orderBy("id")
        .execute(),
    );
    let result = { ok: false, entries: 0, broken_at: null as number | null };
    const verify = await time(VERIFY_RUNS, async () => {
      result = await verifyHistoryChain(db, ctx, "timber", chainId);
    });
    if (!result.ok || result.entries !== ENTRIES) throw new Error(`chain did not verify: ${JSON.stringify(result)}`);
    console.log(`verify a chain of ${ENTRIES} entries, ${VERIFY_RUNS} runs: ${JSON.stringify(result)}`);
    console.log(`  bare SELECT of the rows: ${fmt(bareRead)}`);
    console.log(`  verifyHistoryChain:      ${fmt(verify)}`);
    console.log(`  ${((verify.median / ENTRIES) * 1000).toFixed(2)} µs per entry (median); ${ratio(verify, bareRead)}`);
  } finally {
    await dbs.drop({ query: (statement) => sql.raw(statement).execute(db) }).catch(() => undefined);
    await db.destroy();
  }
}

await main();
