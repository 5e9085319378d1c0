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
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createConnection, type Connection } from "mysql2/promise";
import {
  SMOKE,
  benchDatabases,
  fmt,
  httpClient,
  machineLoad,
  ratio,
  rng,
  signIn,
  startWeb,
  time as timeRuns,
} from "./lib";

const STORAGES = SMOKE ? 5 : 300;
const MEASUREMENTS = SMOKE ? 100 : 20_000;
const PLANKS_PER = SMOKE ? 3 : Number(process.env.BENCH_PLANKS_PER ?? 100);
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = SMOKE ? 1 : 5;
const time = (fn: () => Promise<unknown>) => timeRuns(fn, { runs: RUNS, warmup: WARMUP });

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

async function main() {
  const dbs = await benchDatabases("lumber");
  const conn = await createConnection({ uri: dbs.mysqlUrl, multipleStatements: false });
  const ids = await seed(conn);
  const web = await startWeb(dbs);
  const client = httpClient(web.base);
  try {
    const { auth, cookie } = await signIn(web, ids.userId);
    const { db } = await import("../app/utils/db.server");

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
    console.log(`${machineLoad()} before timing`);

    const get = (path: string, headers: Record<string, string>) => client.get(path, headers);
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
    const conn2 = await createConnection({ uri: dbs.mysqlUrl });
    const loadApi = await time(() =>
      get(`/api/web_app/dashboard_filter?${filterQuery}&measurements_included=true`, auth),
    );
    const loadSql = await time(() => Promise.all([aggregate(), idList(conn2)]));
    await conn2.end();
    const storageId = ids.firstStorage + 7;
    const page = await time(() => get(`/measurements/lumber`, cookie));
    const pageOpen = await time(() => get(`/measurements/lumber?open=${storageId}&page=2`, cookie));

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
    client.close();
    await web.stop();
    await dbs.drop(conn);
    await conn.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
