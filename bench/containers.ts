/**
 * Containers benchmark (issue 20). Seeds its own MySQL database with one organisation on the
 * Container plan: 500 bills of lading, 10,000 containers, 40,000 container measurements and
 * 4,000,000 logs (100 per measurement), plus one bill of 200 containers for the tally sheet (and
 * one of 50, to show its memory does not grow with the bill). Starts the built web server against
 * it and prints:
 *   - p95 of POST /api/web_app/containers/container_filter (page 1, and with measurement filter
 *     fields) vs its bare aggregate (SUM of logs and volume per bill, bareBillAggregate), vs the
 *     same queries the call runs, bare, and of the model function containerFilter() in process;
 *   - time and peak memory (RSS and heap) of bill_of_lading_tally_sheet_excel written in this
 *     process through the export type's own writer, for the 200- and the 50-container bill.
 * Targets: filter p95 < 150 ms and < 1.5x its bare aggregate; tally sheet < 10 s, memory flat.
 *
 * Run: npm run build && npx tsx bench/containers.ts   (needs MySQL and PostgreSQL as for the tests)
 * BENCH_SCALE=0.05 seeds 5 % of the sizes (the 200-container bill stays whole); BENCH_RUNS sets
 * the timed runs (default 60).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { createConnection, type Connection } from "mysql2/promise";
import { SMOKE, benchDatabases, fmt, httpClient, machineLoad, rng, signIn, startWeb, time as timeRuns } from "./lib";

const SCALE = SMOKE ? 0.001 : Number(process.env.BENCH_SCALE ?? 1);
const BILLS = Math.max(2, Math.round(500 * SCALE));
const CONTAINERS = Math.max(4, Math.round(10_000 * SCALE));
const MEASUREMENTS_PER_CONTAINER = 4; // 40,000 / 10,000
const LOGS_PER_MEASUREMENT = 100; // 4,000,000 / 40,000
const TALLY_CONTAINERS = SMOKE ? 5 : 200;
const SMALL_TALLY_CONTAINERS = SMOKE ? 2 : 50;
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = SMOKE ? 1 : 5;
const time = (fn: () => Promise<unknown>) => timeRuns(fn, { runs: RUNS, warmup: WARMUP });

/** The JAS volume of a log of scaling diameter d cm at 4 m, rounded per log (as app/domain/jas.ts for L < 6 m). */
const jasV = (d: number) => Math.round(((d * d * 4) / 10_000) * 10_000) / 10_000;

/** Containers (in bills) with their measurements and logs; returns the first container id. */
async function seedContainers(
  conn: Connection,
  rand: () => number,
  orgId: number,
  storageId: number,
  billOf: (i: number) => number,
  count: number,
  label: string,
) {
  const rows = Array.from({ length: count }, (_, i) => [
    orgId,
    billOf(i),
    `${label}${String(i + 1).padStart(5, "0")}`,
    `SEAL-${i}`,
    2200,
    24_000,
  ]);
  let firstContainer = 0;
  for (let s = 0; s < rows.length; s += 5000) {
    const [r] = (await conn.query(
      "INSERT INTO containers (organization_id, bill_of_lading_id, name, seal_number, tare_weight, net_weight) VALUES ?",
      [rows.slice(s, s + 5000)],
    )) as any;
    if (s === 0) firstContainer = r.insertId;
  }
  const now = Date.now();
  const year = 365 * 86400_000;
  const BATCH = 500; // containers per round
  let logsDone = 0;
  for (let start = 0; start < count; start += BATCH) {
    const ms: unknown[][] = [];
    const logsOf: number[][] = [];
    for (let c = start; c < Math.min(count, start + BATCH); c++) {
      for (let k = 0; k < MEASUREMENTS_PER_CONTAINER; k++) {
        const ds = Array.from({ length: LOGS_PER_MEASUREMENT }, () => 14 + Math.floor(rand() * 30));
        const volume = ds.reduce((s, d) => s + jasV(d), 0);
        const taken = new Date(now - rand() * year);
        ms.push([
          orgId,
          storageId,
          firstContainer + c,
          taken,
          taken,
          4,
          LOGS_PER_MEASUREMENT,
          volume,
          1 + (k % 3),
          k % 2,
        ]);
        logsOf.push(ds);
      }
    }
    const [res] = (await conn.query(
      "INSERT INTO container_measurements (organization_id, storage_id, container_id, taken_at, measured_at, log_length, logs_count, volume, wood_type_id, measurement_type_id) VALUES ?",
      [ms],
    )) as any;
    const firstId = res.insertId as number;
    let logRows: unknown[][] = [];
    for (let m = 0; m < logsOf.length; m++) {
      logsOf[m]!.forEach((d, k) => {
        logRows.push([orgId, firstId + m, 100 + (k % 10) * 60, 100 + Math.floor(k / 10) * 60, d * 2.5, d, d, jasV(d)]);
      });
      if (logRows.length >= 10_000) {
        await conn.query(
          "INSERT INTO container_measurement_logs (organization_id, container_measurement_id, x, y, r, d, jas_d, v) VALUES ?",
          [logRows],
        );
        logsDone += logRows.length;
        logRows = [];
      }
    }
    if (logRows.length) {
      await conn.query(
        "INSERT INTO container_measurement_logs (organization_id, container_measurement_id, x, y, r, d, jas_d, v) VALUES ?",
        [logRows],
      );
      logsDone += logRows.length;
    }
    process.stdout.write(`\r${label}: ${Math.min(count, start + BATCH)} of ${count} containers, ${logsDone} logs`);
  }
  process.stdout.write("\n");
  return firstContainer;
}

async function seed(conn: Connection) {
  const rand = rng(20);
  const t0 = performance.now();
  await conn.query("SET FOREIGN_KEY_CHECKS = 0, UNIQUE_CHECKS = 0");
  const [org] = (await conn.query(
    `INSERT INTO organizations (name, features) VALUES ('Bench Port', '["container_measurements"]')`,
  )) as any;
  const orgId = org.insertId as number;
  const [user] = (await conn.query(
    "INSERT INTO users (email, name, recent_organization_id, verified_at, devices_updated_at) VALUES ('bench@example.test', 'Bench', ?, NOW(), NOW())",
    [orgId],
  )) as any;
  await conn.query(
    "INSERT INTO roles (user_id, organization_id, name, assignable_type, assignable_id) VALUES (?, ?, 'admin', 'Organization', ?)",
    [user.insertId, orgId, orgId],
  );
  const [st] = (await conn.query("INSERT INTO storages (organization_id, name) VALUES (?, 'Port yard')", [
    orgId,
  ])) as any;
  const storageId = st.insertId as number;
  const billRows = Array.from({ length: BILLS }, (_, i) => [
    orgId,
    `BL-${String(i + 1).padStart(4, "0")}`,
    i % 10 === 9,
    new Date(Date.now() - (BILLS - i) * 3600_000),
  ]);
  const [b] = (await conn.query("INSERT INTO bill_of_ladings (organization_id, name, archived, created_at) VALUES ?", [
    billRows,
  ])) as any;
  const firstBill = b.insertId as number;
  await seedContainers(conn, rand, orgId, storageId, (i) => firstBill + (i % BILLS), CONTAINERS, "MSKU");
  // The tally sheet's bills: 200 containers, and 50 (kept out of the filter's page: archived, oldest).
  const [tb] = (await conn.query(
    "INSERT INTO bill_of_ladings (organization_id, name, archived, created_at) VALUES (?, 'BL-TALLY-200', 1, '2020-01-01'), (?, 'BL-TALLY-50', 1, '2020-01-01')",
    [orgId, orgId],
  )) as any;
  const tallyBill = tb.insertId as number;
  const smallTallyBill = tallyBill + 1;
  await seedContainers(conn, rand, orgId, storageId, () => tallyBill, TALLY_CONTAINERS, "TALY");
  await seedContainers(conn, rand, orgId, storageId, () => smallTallyBill, SMALL_TALLY_CONTAINERS, "SMAL");
  // Every bill and container shared, as new ones are (the bills' tokens are part of the filter's answer).
  const links: unknown[][] = [];
  for (let i = 0; i < BILLS; i++)
    links.push([orgId, "bill_of_lading", firstBill + i, randomBytes(32).toString("hex"), `bench-b-${i}`]);
  await conn.query("INSERT INTO public_links (organization_id, kind, record_id, token_hash, token_seed) VALUES ?", [
    links,
  ]);
  await conn.query("SET FOREIGN_KEY_CHECKS = 1, UNIQUE_CHECKS = 1");
  await conn.query(
    "ANALYZE TABLE bill_of_ladings, containers, container_measurements, container_measurement_logs, public_links",
  );
  console.log(`seed: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { orgId, userId: user.insertId as number, tallyBill, smallTallyBill };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function main() {
  const dbs = await benchDatabases("containers");
  const outDir = `/tmp/timber-bench-${dbs.mysqlName}`;
  const conn = await createConnection({ uri: dbs.mysqlUrl, multipleStatements: false });
  fs.mkdirSync(outDir, { recursive: true });
  const ids = await seed(conn);
  const web = await startWeb(dbs);
  const client = httpClient(web.base);
  try {
    const { auth } = await signIn(web, ids.userId);
    const { bareBillAggregate, containerFilter } = await import("../app/models/container.server");
    const { ContainerFilterSchema } = await import("../app/utils/schemas/containers");
    const { db } = await import("../app/utils/db.server");
    const [[counts]] = (await conn.query(
      "SELECT (SELECT COUNT(*) FROM bill_of_ladings) b, (SELECT COUNT(*) FROM containers) c, (SELECT COUNT(*) FROM container_measurements) m, (SELECT COUNT(*) FROM container_measurement_logs) l",
    )) as any;
    console.log(
      `seeded (scale ${SCALE}): ${counts.b} bills of lading, ${counts.c} containers, ${counts.m} container measurements, ${counts.l} logs`,
    );
    console.log(`${machineLoad()} before timing`);

    const filter = (body: unknown) => async () => {
      const text = await client.postJson("/api/web_app/containers/container_filter", body, auth);
      const data = JSON.parse(text) as { bill_of_ladings: unknown[] };
      if (!SMOKE && data.bill_of_ladings.length === 0) throw new Error("container_filter: empty page");
      return data;
    };
    const authOnly = await time(() => client.get("/api/web_app/enabled_features", auth));
    const plain = await time(filter({}));
    const end = new Date();
    const start = new Date(end.getTime() - 180 * 86400_000);
    const filtered = { taken_at_start: start.toISOString(), length_range_start: 3, measurement_type_ids: [0] };
    const withFilter = await time(filter(filtered));
    const bare = await time(() => bareBillAggregate(db(), ids.orgId));
    // The model function alone, in this process (no HTTP, Remix or sign-in): what the call's own code costs.
    const orgCtx = { organizationId: ids.orgId };
    const model = await time(() => containerFilter(db(), orgCtx, ContainerFilterSchema.parse({})));
    const modelFiltered = await time(() => containerFilter(db(), orgCtx, ContainerFilterSchema.parse(filtered)));
    // What the unfiltered call asks the database for, run bare: count, page of bills, their
    // containers, their figures, their links.
    const barePage = await time(async () => {
      const [page] = (await conn.query(
        "SELECT * FROM bill_of_ladings WHERE organization_id = ? AND archived = 0 ORDER BY created_at DESC, id DESC LIMIT 20",
        [ids.orgId],
      )) as any;
      await conn.query("SELECT COUNT(*) FROM bill_of_ladings WHERE organization_id = ? AND archived = 0", [ids.orgId]);
      const billIds = page.map((b: { id: number }) => b.id);
      const [cs] = (await conn.query(
        "SELECT id, name, bill_of_lading_id FROM containers WHERE organization_id = ? AND bill_of_lading_id IN (?) ORDER BY name, id",
        [ids.orgId, billIds],
      )) as any;
      await conn.query(
        "SELECT container_id, COUNT(*), SUM(logs_count), SUM(volume) FROM container_measurements WHERE organization_id = ? AND deleted_at IS NULL AND container_id IS NOT NULL AND container_id IN (?) GROUP BY container_id",
        [ids.orgId, cs.map((c: { id: number }) => c.id)],
      );
      await conn.query(
        "SELECT record_id, token_seed, token_hash FROM public_links WHERE organization_id = ? AND kind = 'bill_of_lading' AND record_id IN (?)",
        [ids.orgId, billIds],
      );
    });
    const [plan] = (await conn.query(
      `EXPLAIN SELECT c.bill_of_lading_id FROM container_measurements cm JOIN containers c ON c.id = cm.container_id
       WHERE cm.organization_id = ? AND cm.deleted_at IS NULL AND cm.container_id IS NOT NULL AND cm.taken_at >= ? AND cm.log_length >= 3 AND cm.measurement_type_id IN (0)`,
      [ids.orgId, start],
    )) as any;

    console.log(
      `\nPOST /containers/container_filter (page 1)          ${fmt(plain)}   (bare aggregate: ${fmt(bare)}; p95 ratio ${(plain.p95 / bare.p95).toFixed(2)}x)`,
    );
    console.log(
      `  the call's own queries, bare: ${fmt(barePage)}; call / its queries: p95 ${(plain.p95 / barePage.p95).toFixed(2)}x`,
    );
    console.log(
      `POST /containers/container_filter (measurement filter) ${fmt(withFilter)}   (p95 ratio to the bare aggregate ${(withFilter.p95 / bare.p95).toFixed(2)}x)`,
    );
    console.log(
      `containerFilter() in process (page 1)          ${fmt(model)}   (p95 ratio to the bare aggregate ${(model.p95 / bare.p95).toFixed(2)}x)`,
    );
    console.log(
      `containerFilter() in process (measurement filter) ${fmt(modelFiltered)}   (p95 ratio ${(modelFiltered.p95 / bare.p95).toFixed(2)}x)`,
    );
    console.log(`GET /enabled_features (HTTP + Remix + signed-in context, no query of its own) ${fmt(authOnly)}`);
    console.log(
      `  plan of the filter's subquery: ${plan.map((r: { table: string; key: string | null; rows: number }) => `${r.table}:${r.key ?? "ALL"}(${r.rows})`).join(", ")}`,
    );

    // The tally sheet, written by the export type's own writer into a file in this process.
    const { billOfLadingTallySheetExcel } =
      await import("../app/services/exports/containers/bill-of-lading-tally-sheet-excel.server");
    const { i18nServer } = await import("../app/utils/i18n.server");
    const t = await i18nServer.getFixedT("en", ["exports", "containers", "lookups"]);
    const tally = async (billId: number, label: string) => {
      if (global.gc) global.gc();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const timer = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      }, 20);
      const file = `${outDir}/tally-${billId}.xlsx`;
      const t0 = performance.now();
      const prepared = await billOfLadingTallySheetExcel.source.prepare(
        db(),
        ids.orgId,
        { bill_of_lading_id: billId },
        t,
      );
      const out = fs.createWriteStream(file);
      const done = new Promise<void>((resolve, reject) => out.on("finish", () => resolve()).on("error", reject));
      const result = await billOfLadingTallySheetExcel.write(out, {
        db: db(),
        organizationId: ids.orgId,
        selection: { bill_of_lading_id: billId },
        t,
        precision: 3,
        volumeUnit: "m^3",
        timeZone: "UTC",
        expectedRows: prepared.expectedRows,
        onProgress: async () => {},
      });
      await done;
      const ms = performance.now() - t0;
      clearInterval(timer);
      console.log(
        `bill_of_lading_tally_sheet_excel, ${label}: ${result.rowCount} logs in ${(ms / 1000).toFixed(2)} s, file ${mb(fs.statSync(file).size)}; peak RSS ${mb(peakRss)} (+${mb(peakRss - before.rss)}), peak heap ${mb(peakHeap)} (+${mb(peakHeap - before.heapUsed)})`,
      );
    };
    console.log("");
    await tally(ids.smallTallyBill, `${SMALL_TALLY_CONTAINERS} containers`);
    await tally(ids.tallyBill, `${TALLY_CONTAINERS} containers`);
    await db().destroy();
  } finally {
    client.close();
    await web.stop();
    await dbs.drop(conn);
    await conn.end();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
