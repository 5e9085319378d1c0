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
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createConnection } from "mysql2/promise";
import { SMOKE, benchDatabases, fmt, httpClient, machineLoad, startWeb, time as timeRuns } from "./lib";

const LOGS = SMOKE ? 50 : 2000;
const SIZE = SMOKE ? { width: 1000, height: 750, pxPerCm: 1 } : { width: 4000, height: 3000, pxPerCm: 2.5 };
const RUNS = SMOKE ? 2 : Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = SMOKE ? 1 : 5;

const time = (fn: () => Promise<unknown>) => timeRuns(fn, { runs: RUNS, warmup: WARMUP });

async function main() {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), "public-bench-"));
  const dbs = await benchDatabases("public");
  Object.assign(process.env, {
    DATABASE_URL: dbs.mysqlUrl,
    JOBS_DATABASE_URL: dbs.jobsUrl,
    STORAGE_DIR: storageDir,
    SESSION_SECRET: randomBytes(32).toString("hex"),
  });
  const { db } = await import("../app/utils/db.server");
  const { layoutStack, renderStackJpeg } = await import("../db/seed/stack-photo");
  const { computeMeasurementLogs } = await import("../app/domain/measurement-logs");
  const { storeOriginalPhoto, makeRenditions } = await import("../app/services/photos.server");
  const { fileStorage } = await import("../app/services/file-storage.server");
  const { createPublicLink, publicLinkOf } = await import("../app/models/public-link.server");
  const conn = await createConnection({ uri: dbs.mysqlUrl });
  let web: Awaited<ReturnType<typeof startWeb>> | null = null;
  let client: ReturnType<typeof httpClient> | null = null;
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

    // STORAGE_DIR and the databases come with process.env.
    web = await startWeb({
      ...dbs,
      env: {
        SESSION_SECRET: process.env.SESSION_SECRET,
        // Every timed request counts against the one address of this process; none may be refused.
        PUBLIC_RATE_LIMIT: "1000000",
      },
    });
    const http = httpClient(web.base);
    client = http;
    console.log(`${machineLoad()} before timing`);
    const get = (p: string) => http.getBytes(p);

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
    client?.close();
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
