/**
 * Duplicate analysis benchmark (issue 19). Seeds a fresh MySQL database with one organisation,
 * 100 storages and 10,000 measurements over 30 days (about 1,000,000 logs) with known labels:
 *   - piles measured once (the look-alikes: same packing and size, same yards, same days),
 *   - piles uploaded twice (the same photo file),
 *   - piles uploaded again re-encoded (photo hash 0-3 bits off, another file),
 *   - piles photographed again (logs shifted, scaled, rotated, a few missed or added, noisy diameters).
 * Runs the analysis as the job does (app/services/duplicate-analysis.server.ts) and prints the
 * precision and recall of the duplicate pairs against the labels, the time (loading vs matching,
 * and the bare SQL read of the same rows for the ratio) and the peak memory.
 * Targets: precision >= 0.95, recall >= 0.95, under 60 s. The matching's CPU time is printed beside
 * its wall time: on a shared machine the wall time mostly measures the other processes.
 * Run: npx tsx bench/analysis.ts   (needs MySQL and PostgreSQL as for the tests)
 */
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { findDuplicateCases } from "~/domain/duplicate-measurements";
import { loadAnalysisMeasurements } from "~/models/analyze-report.server";
import { runAnalysis } from "~/services/duplicate-analysis.server";
import type { FileStorage } from "~/services/file-storage.server";
import { SMOKE, benchDatabases } from "./lib";
import { createDb } from "../app/utils/db.server";
import { pile, rephotograph, type PileLog } from "../db/seed/pile-variants";
import { mulberry32 } from "../db/seed/stack-photo";

const MEASUREMENTS = SMOKE ? 100 : Number(process.env.BENCH_MEASUREMENTS ?? 10_000);
const STORAGES = SMOKE ? 3 : 100;
const DAYS = 30;
// Pile faces of about 100 logs (the issue's 1,000,000 logs for 10,000 measurements).
const FACE = SMOKE ? { width: 1000, height: 750 } : { width: 1600, height: 1200 };

const START = Date.UTC(2026, 9, 1);

type Row = { storage: number; takenAt: number; lat: number; lon: number; sha: string; dhash: string; logs: PileLog[] };

function randomHex(rand: () => number, digits: number) {
  let s = "";
  for (let i = 0; i < digits; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

function flipBits(hex: string, bits: number, rand: () => number) {
  const chars = hex.split("").map((c) => parseInt(c, 16));
  const used = new Set<number>();
  while (used.size < bits) used.add(Math.floor(rand() * 64));
  for (const b of used) chars[b >> 2] ^= 1 << (b & 3);
  return chars.map((c) => c.toString(16)).join("");
}

/** The labelled set: rows, and the pairs (indexes) that are the same pile. */
function generate() {
  const rand = mulberry32(19);
  const rows: Row[] = [];
  const truth: Array<[number, number]> = [];
  const storages = Array.from({ length: STORAGES }, (_, i) => ({
    lat: 57.5 + (i % 10) * 0.2 + rand() * 0.05,
    lon: 22 + Math.floor(i / 10) * 0.3 + rand() * 0.05,
  }));
  const base = (seed: number): Row => {
    const s = Math.floor(rand() * STORAGES);
    return {
      storage: s,
      takenAt: START + Math.floor(rand() * DAYS) * 86_400_000 + Math.floor(rand() * 10 * 3600_000) + 6 * 3600_000,
      // Piles of one yard stand within ~300 m of each other.
      lat: storages[s].lat + (rand() - 0.5) * 0.003,
      lon: storages[s].lon + (rand() - 0.5) * 0.005,
      sha: randomHex(rand, 64),
      dhash: randomHex(rand, 16),
      logs: pile(seed, FACE),
    };
  };
  const later = (r: Row) => r.takenAt + 600_000 + Math.floor(rand() * 6 * 3600_000);
  const dup = Math.round(MEASUREMENTS * 0.1); // pairs of each duplicate kind ...
  const reupload = dup;
  const reencoded = Math.round(dup / 2);
  const rephotographed = Math.round(dup / 2);
  const singles = MEASUREMENTS - 2 * (reupload + reencoded + rephotographed);
  let seed = 1;
  for (let i = 0; i < singles; i++) rows.push(base(seed++));
  const pair = (copy: (r: Row) => Row) => {
    const r = base(seed++);
    rows.push(r, copy(r));
    truth.push([rows.length - 2, rows.length - 1]);
  };
  for (let i = 0; i < reupload; i++) pair((r) => ({ ...r, takenAt: later(r) }));
  for (let i = 0; i < reencoded; i++)
    pair((r) => ({
      ...r,
      takenAt: later(r),
      sha: randomHex(rand, 64),
      dhash: flipBits(r.dhash, Math.floor(rand() * 4), rand),
    }));
  for (let i = 0; i < rephotographed; i++)
    pair((r) => ({
      ...r,
      takenAt: later(r),
      lat: r.lat + (rand() - 0.5) * 0.00008,
      lon: r.lon + (rand() - 0.5) * 0.00008,
      sha: randomHex(rand, 64),
      dhash: randomHex(rand, 16),
      logs: rephotograph(r.logs, seed * 7 + 3),
    }));
  return { rows, truth, kinds: { singles, reupload, reencoded, rephotographed } };
}

async function main() {
  const t0 = performance.now();
  const dbs = await benchDatabases("analysis");
  const db = createDb(dbs.mysqlUrl, 4);
  try {
    const { rows, truth, kinds } = generate();
    const logCount = rows.reduce((s, r) => s + r.logs.length, 0);
    const org = await db
      .insertInto("organizations")
      .values({ name: "Bench Forest", features: "[]" })
      .executeTakeFirstOrThrow();
    const orgId = Number(org.insertId);
    const storageIds: number[] = [];
    for (let i = 0; i < STORAGES; i++) {
      const s = await db
        .insertInto("storages")
        .values({ organization_id: orgId, name: `Yard ${i + 1}`, storage_state_id: 1 })
        .executeTakeFirstOrThrow();
      storageIds.push(Number(s.insertId));
    }
    await sql`SET FOREIGN_KEY_CHECKS = 0, UNIQUE_CHECKS = 0`.execute(db);
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      const first = await db
        .insertInto("measurements")
        .values(
          chunk.map((r) => ({
            organization_id: orgId,
            storage_id: storageIds[r.storage],
            taken_at: new Date(r.takenAt),
            latitude: r.lat,
            longitude: r.lon,
            log_length: 4,
            logs_count: r.logs.length,
            volume: r.logs.reduce((s, l) => s + Math.PI * (l.d / 200) ** 2 * 4, 0),
            photo_sha256: r.sha,
            photo_dhash: r.dhash,
          })),
        )
        .executeTakeFirstOrThrow();
      // One multi-row INSERT gives consecutive ids from the first.
      for (let k = 0; k < chunk.length; k++) ids.push(Number(first.insertId) + k);
    }
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length)
        await sql
          .raw(`INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v) VALUES ${batch.join(",")}`)
          .execute(db);
      batch = [];
    };
    for (const [i, r] of rows.entries()) {
      for (const l of r.logs) batch.push(`(${orgId},${ids[i]},${l.x},${l.y},${l.r},${l.d},0)`);
      if (batch.length >= 20_000) await flush();
    }
    await flush();
    const seeded = performance.now();
    console.log(
      `seeded ${rows.length} measurements (${kinds.singles} once, ${kinds.reupload} uploaded twice, ${kinds.reencoded} re-encoded, ${kinds.rephotographed} photographed again), ${logCount} logs, ${STORAGES} storages, in ${((seeded - t0) / 1000).toFixed(1)} s`,
    );

    const report = await db
      .insertInto("analyze_reports")
      .values({
        organization_id: orgId,
        name: "Bench",
        period_from: new Date(START).toISOString().slice(0, 10),
        period_to: new Date(START + (DAYS + 1) * 86_400_000).toISOString().slice(0, 10),
        storage_ids: "[]",
        measurement_types: "[]",
      })
      .executeTakeFirstOrThrow();
    const reportId = Number(report.insertId);
    const reportRow = await db
      .selectFrom("analyze_reports")
      .selectAll()
      .where("id", "=", reportId)
      .executeTakeFirstOrThrow();

    // The bare read of the same rows (what loading cannot beat), then the load alone, the matching alone.
    let t = performance.now();
    await sql`SELECT l.measurement_id, l.x, l.y, l.r, l.d FROM logs l JOIN measurements m ON m.id = l.measurement_id WHERE m.organization_id = ${orgId}`.execute(
      db,
    );
    const bare = performance.now() - t;
    t = performance.now();
    const loaded = await loadAnalysisMeasurements(db, reportRow);
    const loadMs = performance.now() - t;
    t = performance.now();
    const cpu0 = process.cpuUsage();
    findDuplicateCases(loaded.map((l) => l.measurement));
    const matchCpu = process.cpuUsage(cpu0);
    const matchMs = performance.now() - t;

    // The whole job as the worker runs it, with memory sampled.
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const noFiles = { get: () => Promise.reject(new Error("no files in the benchmark")) } as unknown as FileStorage;
    t = performance.now();
    await runAnalysis(db, noFiles, reportId);
    const jobMs = performance.now() - t;
    clearInterval(sampler);

    const done = await db
      .selectFrom("analyze_reports")
      .selectAll()
      .where("id", "=", reportId)
      .executeTakeFirstOrThrow();
    const cases = await db
      .selectFrom("analyze_report_cases")
      .selectAll()
      .where("analyze_report_id", "=", reportId)
      .execute();
    const indexOf = new Map(ids.map((id, i) => [id, i]));
    const key = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
    const truthKeys = new Set(truth.map(([a, b]) => key(a, b)));
    const predicted = new Set<string>();
    for (const c of cases) {
      const members = c.measurement_ids.map((id) => indexOf.get(id)!);
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++) predicted.add(key(members[i], members[j]));
    }
    const tp = [...predicted].filter((k) => truthKeys.has(k)).length;
    const precision = predicted.size ? tp / predicted.size : 1;
    const recall = truthKeys.size ? tp / truthKeys.size : 1;
    const byKind = (from: number, count: number) => {
      const keys = truth.slice(from, from + count).map(([a, b]) => key(a, b));
      return keys.filter((k) => predicted.has(k)).length / Math.max(1, keys.length);
    };
    console.log(`status ${done.status}${done.status_detail ? ` (${done.status_detail})` : ""}, ${cases.length} cases`);
    console.log(
      `precision ${precision.toFixed(4)} (${predicted.size - tp} false pairs), recall ${recall.toFixed(4)} (${truthKeys.size - tp} missed of ${truthKeys.size})`,
    );
    console.log(
      `recall by kind: uploaded twice ${byKind(0, kinds.reupload).toFixed(3)}, re-encoded ${byKind(kinds.reupload, kinds.reencoded).toFixed(3)}, photographed again ${byKind(kinds.reupload + kinds.reencoded, kinds.rephotographed).toFixed(3)}`,
    );
    console.log(
      `job ${(jobMs / 1000).toFixed(2)} s (load ${(loadMs / 1000).toFixed(2)} s = ${(loadMs / bare).toFixed(2)}x the bare SQL read of ${(bare / 1000).toFixed(2)} s, matching ${(matchMs / 1000).toFixed(2)} s wall, ${((matchCpu.user + matchCpu.system) / 1e6).toFixed(2)} s CPU), peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`,
    );
  } finally {
    await dbs.drop({ query: (statement) => sql.raw(statement).execute(db) }).catch(() => undefined);
    await db.destroy();
  }
}

await main();
