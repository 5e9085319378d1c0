/**
 * Timber dashboard benchmark (issue 6). Seeds its own MySQL database with one organisation,
 * 300 storages, 50,000 measurements over a year and 3,000,000 logs (60 per measurement), starts
 * the built web server against it, and prints median and p95 times of:
 *   - GET /api/web_app/dashboard_filter (three-month range plus a few filters) vs its bare SQL aggregate,
 *   - POST /api/web_app/measurements/search (one storage, page 2) vs its bare SQL,
 *   - the /measurements/timber page (server response).
 * Targets: p95 < 150 ms and < 1.5x the bare query; page < 300 ms.
 * Run: npm run build && npx tsx bench/timber-dashboard.ts   (needs MySQL and PostgreSQL as for the tests)
 * Prints each call's p95 ratio to its bare SQL, and the page's.
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
const MEASUREMENTS = SMOKE ? 200 : 50_000;
// BENCH_LOGS_PER=0 skips the 3M log rows: the timed calls read measurements and storages only,
// so a quick comparison on a shared machine need not seed them.
const LOGS_PER = SMOKE ? 3 : Number(process.env.BENCH_LOGS_PER ?? 60);
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = SMOKE ? 1 : 5;
const time = (fn: () => Promise<unknown>) => timeRuns(fn, { runs: RUNS, warmup: WARMUP });

async function seed(conn: Connection) {
  const rand = rng(7);
  const t0 = performance.now();
  await conn.query("SET FOREIGN_KEY_CHECKS = 0, UNIQUE_CHECKS = 0");
  const [org] = (await conn.query("INSERT INTO organizations (name, features) VALUES ('Bench Forest', '[]')")) as any;
  const orgId = org.insertId as number;
  const [user] = (await conn.query(
    "INSERT INTO users (email, name, recent_organization_id, verified_at, devices_updated_at) VALUES ('bench@example.test', 'Bench', ?, NOW(), NOW())",
    [orgId],
  )) as any;
  await conn.query(
    "INSERT INTO roles (user_id, organization_id, name, assignable_type, assignable_id) VALUES (?, ?, 'admin', 'Organization', ?)",
    [user.insertId, orgId, orgId],
  );
  const storageRows = Array.from({ length: STORAGES }, (_, i) => [
    orgId,
    `Storage ${String(i + 1).padStart(3, "0")}`,
    57.5 + rand() * 2,
    22 + rand() * 6,
    1 + (i % 6),
  ]);
  const [st] = (await conn.query(
    "INSERT INTO storages (organization_id, name, latitude, longitude, storage_state_id) VALUES ?",
    [storageRows],
  )) as any;
  const firstStorage = st.insertId as number;
  const now = Date.now();
  const year = 365 * 86400_000;
  const BATCH = 2000;
  let logsDone = 0;
  for (let start = 0; start < MEASUREMENTS; start += BATCH) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(MEASUREMENTS, start + BATCH); i++) {
      const taken = new Date(now - rand() * year);
      rows.push([
        orgId,
        firstStorage + Math.floor(rand() * STORAGES),
        taken,
        taken,
        i % 4,
        57.5 + rand() * 2,
        22 + rand() * 6,
        3,
        LOGS_PER,
        2 + rand() * 10,
        "cylinder",
        1 + (i % 10),
        1,
        `{"lot":"L-${i % 50}"}`,
      ]);
    }
    const [res] = (await conn.query(
      "INSERT INTO measurements (organization_id, storage_id, taken_at, measured_at, measurement_type_id, latitude, longitude, log_length, logs_count, volume, volume_formula, wood_type_id, photo_status, custom_fields) VALUES ?",
      [rows],
    )) as any;
    const firstId = res.insertId as number;
    // Logs of this batch, a few thousand rows per statement.
    let logRows: unknown[][] = [];
    for (let m = 0; m < rows.length; m++) {
      for (let k = 0; k < LOGS_PER; k++) {
        const r = 30 + rand() * 50;
        logRows.push([orgId, firstId + m, 100 + k * 20, 300 + (k % 7) * 40, r, r / 2, 0.05]);
        if (logRows.length >= 10_000) {
          await conn.query("INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v) VALUES ?", [logRows]);
          logsDone += logRows.length;
          logRows = [];
        }
      }
    }
    if (logRows.length) {
      await conn.query("INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v) VALUES ?", [logRows]);
      logsDone += logRows.length;
    }
    process.stdout.write(`\rseeded ${Math.min(MEASUREMENTS, start + BATCH)} measurements, ${logsDone} logs`);
  }
  await conn.query("SET FOREIGN_KEY_CHECKS = 1, UNIQUE_CHECKS = 1");
  await conn.query("ANALYZE TABLE measurements, logs, storages");
  // Every storage shared, as new storages are (their tokens are part of the filter call's answer).
  const seedOf = (i: number) => `bench-seed-${String(i).padStart(11, "0")}`;
  await conn.query("INSERT INTO public_links (organization_id, kind, record_id, token_hash, token_seed) VALUES ?", [
    Array.from({ length: STORAGES }, (_, i) => [
      orgId,
      "storage",
      firstStorage + i,
      randomBytes(32).toString("hex"),
      seedOf(i),
    ]),
  ]);
  console.log(`\nseed: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { orgId, userId: user.insertId as number, firstStorage };
}

async function main() {
  const dbs = await benchDatabases("timber");
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
    const filterQuery = `taken_at_start=${d(start)}&taken_at_end=${d(end)}&measurement_type_ids=0,1,2&storage_state_ids=1,2,3,4,5`;
    const [[count]] = (await conn.query(
      "SELECT COUNT(*) AS c FROM measurements WHERE organization_id = ? AND deleted_at IS NULL AND taken_at BETWEEN ? AND ?",
      [ids.orgId, start, end],
    )) as any;
    console.log(`three-month range: ${count.c} measurements of ${MEASUREMENTS}`);
    console.log(`${machineLoad()} before timing`);

    const get = (path: string, headers: Record<string, string>) => client.get(path, headers);
    // A signed-in call with no query of its own: what HTTP, Remix and the signed-in context cost.
    const authOnly = await time(() => get(`/api/web_app/enabled_features`, auth));
    // No database and no sign-in: what HTTP, the request checks and Remix cost.
    const liveOnly = await time(() => get(`/healthcheck/live`, {}));
    const filterApi = await time(() => get(`/api/web_app/dashboard_filter?${filterQuery}`, auth));
    const endOfDay = new Date(`${d(end)}T23:59:59.999Z`);
    const startOfDay = new Date(`${d(start)}T00:00:00.000Z`);
    const filterSql = await time(() =>
      conn.query(
        `SELECT m.storage_id, COUNT(*), SUM(m.logs_count), SUM(m.volume) FROM measurements m
         WHERE m.organization_id = ? AND m.deleted_at IS NULL AND m.taken_at >= ? AND m.taken_at <= ? AND m.measurement_type_id IN (0,1,2)
           AND m.storage_id IN (SELECT id FROM storages WHERE organization_id = ? AND storage_state_id IN (1,2,3,4,5))
         GROUP BY m.storage_id`,
        [ids.orgId, startOfDay, endOfDay, ids.orgId],
      ),
    );
    // Everything the filter call asks the database for, on three connections as the app's pool
    // does: the aggregate, the storages list and their public links (the spec's `token`). The
    // difference to the call is the app's own.
    const conn2 = await createConnection({ uri: dbs.mysqlUrl });
    const conn3 = await createConnection({ uri: dbs.mysqlUrl });
    const filterSqlAll = await time(() =>
      Promise.all([
        conn.query(
          `SELECT m.storage_id, COUNT(*), SUM(m.logs_count), SUM(m.volume) FROM measurements m
           WHERE m.organization_id = ? AND m.deleted_at IS NULL AND m.taken_at >= ? AND m.taken_at <= ? AND m.measurement_type_id IN (0,1,2)
             AND m.storage_id IN (SELECT id FROM storages WHERE organization_id = ? AND storage_state_id IN (1,2,3,4,5))
           GROUP BY m.storage_id`,
          [ids.orgId, startOfDay, endOfDay, ids.orgId],
        ),
        conn2.query(
          "SELECT id, name, latitude, longitude, storage_state_id, storage_group_id, updated_at, last_inventory_confirmed_at FROM storages WHERE organization_id = ? AND deleted_at IS NULL AND storage_state_id IN (1,2,3,4,5) ORDER BY name, id",
          [ids.orgId],
        ),
        conn3.query(
          "SELECT record_id, token_seed, token_hash FROM public_links WHERE organization_id = ? AND kind = 'storage'",
          [ids.orgId],
        ),
      ]),
    );
    await conn2.end();
    await conn3.end();
    const storageId = ids.firstStorage + 7;
    const searchBody = {
      q: { f: { storage_id: storageId, taken_at_start: d(start), taken_at_end: d(end) } },
      paginate: { per_page: 5, page: 2 },
    };
    const searchApi = await time(() => client.postJson("/api/web_app/measurements/search", searchBody, auth));
    const searchSql = await time(() =>
      Promise.all([
        conn.query(
          "SELECT COUNT(*) FROM measurements m WHERE m.organization_id = ? AND m.deleted_at IS NULL AND m.storage_id = ? AND m.taken_at >= ? AND m.taken_at <= ?",
          [ids.orgId, storageId, startOfDay, endOfDay],
        ),
        conn.query(
          "SELECT m.* FROM measurements m WHERE m.organization_id = ? AND m.deleted_at IS NULL AND m.storage_id = ? AND m.taken_at >= ? AND m.taken_at <= ? ORDER BY m.taken_at DESC, m.id DESC LIMIT 5 OFFSET 5",
          [ids.orgId, storageId, startOfDay, endOfDay],
        ),
      ]),
    );
    const page = await time(() => get(`/measurements/timber`, cookie));
    const pageOpen = await time(() => get(`/measurements/timber?open=${storageId}&page=2`, cookie));

    console.log(
      `\nGET /api/web_app/dashboard_filter   ${fmt(filterApi)}   (bare SQL aggregate: ${fmt(filterSql)}; ${ratio(filterApi, filterSql)})`,
    );
    console.log(
      `  the filter call's three queries side by side (bare): ${fmt(filterSqlAll)}; call / both: median ${(filterApi.median / filterSqlAll.median).toFixed(2)}x`,
    );
    console.log(
      `POST /api/web_app/measurements/search ${fmt(searchApi)}   (bare SQL: ${fmt(searchSql)}; ${ratio(searchApi, searchSql)})`,
    );
    console.log(
      `GET /api/web_app/enabled_features     ${fmt(authOnly)}   (HTTP + Remix + signed-in context, no query of its own)`,
    );
    console.log(`GET /healthcheck/live                 ${fmt(liveOnly)}   (HTTP + Remix, no database, not signed in)`);
    console.log(
      `GET /measurements/timber (page)        ${fmt(page)}   (median ratio to the bare aggregate ${(page.median / filterSql.median).toFixed(2)}x)`,
    );
    console.log(`GET /measurements/timber?open=…&page=2 ${fmt(pageOpen)}`);
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
