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
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import {
  historyHash,
  recordHistory,
  snapshotMeasurements,
  verifyHistoryChain,
} from "~/models/measurement-history.server";
import { createDb } from "../app/utils/db.server";
import { migrateAll } from "../db/migrate-lib";

const MYSQL_ROOT = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const PG_ROOT = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
// BENCH_SMOKE=1: a tiny size that only proves the benchmark still runs (no figures asserted).
const SMOKE = process.env.BENCH_SMOKE === "1";
const LOGS = SMOKE ? 10 : 100;
const ENTRIES = SMOKE ? 200 : Number(process.env.BENCH_HISTORY_ENTRIES ?? 10_000);
const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 200);
const VERIFY_RUNS = SMOKE ? 2 : Math.max(5, Math.round(RUNS / 10));
const WARMUP = SMOKE ? 1 : 10;

const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const mysqlName = `history_bench_${suffix}`;
const pgName = `history_jobs_bench_${suffix}`;

function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

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

type Stats = { median: number; p95: number };
const fmt = (s: Stats) => `median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`;
const ratio = (a: Stats, b: Stats) =>
  `median ratio ${(a.median / b.median).toFixed(2)}x, p95 ratio ${(a.p95 / b.p95).toFixed(2)}x`;

async function main() {
  const mysqlUrl = `${MYSQL_ROOT}/${mysqlName}`;
  await migrateAll({ mysqlUrl, jobsUrl: `${PG_ROOT}/${pgName}` });
  const db = createDb(mysqlUrl, 4);
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
    await sql`DROP DATABASE IF EXISTS ${sql.raw(mysqlName)}`.execute(db).catch(() => undefined);
    await db.destroy();
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pgName}`).catch(() => undefined);
    await admin.end();
  }
}

await main();
