/**
 * What every benchmark shares: its own databases, the built web server started against them, a
 * lean HTTP client, and the timing and formatting of figures. Not a benchmark itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrateAll } from "../db/migrate-lib";

export const MYSQL_ROOT = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
export const PG_ROOT = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
// BENCH_SMOKE=1: a tiny size that only proves the benchmark still runs (npm test runs it; no figures asserted).
export const SMOKE = process.env.BENCH_SMOKE === "1";

/** A MySQL and a PostgreSQL database of the benchmark's own, migrated; `drop()` removes both. */
export async function benchDatabases(prefix: string) {
  const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const mysqlName = `${prefix}_bench_${suffix}`;
  const pgName = `${prefix}_jobs_bench_${suffix}`;
  const mysqlUrl = `${MYSQL_ROOT}/${mysqlName}`;
  const jobsUrl = `${PG_ROOT}/${pgName}`;
  await migrateAll({ mysqlUrl, jobsUrl });
  return {
    mysqlName,
    mysqlUrl,
    jobsUrl,
    async drop(conn: { query: (sql: string) => Promise<unknown> }) {
      await conn.query(`DROP DATABASE IF EXISTS \`${mysqlName}\``);
      const client = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A repeatable pseudo-random sequence in [0, 1). */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export type Stats = { median: number; p95: number };

export function stats(times: number[]): Stats {
  const s = [...times].sort((a, b) => a - b);
  // NaN for no times at all (a run that timed nothing prints NaN rather than failing).
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

/** Median and p95 of `runs` sequential calls after `warmup` untimed ones. */
export async function time(fn: () => Promise<unknown>, { runs, warmup }: { runs: number; warmup: number }) {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return stats(times);
}

export const fmt = (s: Stats) => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`;
export const ratio = (a: Stats, b: Stats) =>
  `median ratio ${(a.median / b.median).toFixed(2)}x, p95 ratio ${(a.p95 / b.p95).toFixed(2)}x`;

export function machineLoad() {
  return `machine load average (1 min): ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`;
}

/**
 * The built web server (`npm run build` first) on a free port against the given databases. Its
 * stderr is the benchmark's. BENCH_CPU_PROF=<dir>: it writes a V8 CPU profile there when stopped.
 */
export async function startWeb(settings: {
  mysqlUrl: string;
  jobsUrl: string;
  env?: Record<string, string | undefined>;
}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: settings.mysqlUrl,
    JOBS_DATABASE_URL: settings.jobsUrl,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    APP_URL: base,
    MAP_TILE_URL: "none",
    ...settings.env,
  } as NodeJS.ProcessEnv;
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child: ChildProcess = spawn("node", [...profile, "server.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${base}/healthcheck`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    base,
    env,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    },
  };
}

/**
 * A lean HTTP/1.1 client on one keep-alive connection. The calls are compared with bare SQL run
 * through mysql2, so the client must cost about what a driver does: fetch (undici) added ~3 ms a
 * call on this machine, node:http ~0.5 ms (wrk, in C, is the reference; docs/decisions/027).
 * Redirects are not followed: a 302 to /login must fail the run, not time the login page.
 */
export function httpClient(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<{ status: number; body: Buffer; text: string }>((resolve, reject) => {
      const headers = { ...options.headers } as Record<string, string | number>;
      if (options.body !== undefined) headers["Content-Length"] = Buffer.byteLength(options.body);
      const req = http.request(`${base}${path}`, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          // Decoded only when read: a picture's bytes are never text.
          resolve({
            status: res.statusCode ?? 0,
            body,
            get text() {
              return body.toString("utf8");
            },
          });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(options.body);
    });
  const ok = async (method: string, path: string, options?: { headers?: Record<string, string>; body?: string }) => {
    const res = await request(method, path, options);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    return res;
  };
  return {
    request,
    get: async (path: string, headers?: Record<string, string>) => (await ok("GET", path, { headers })).text,
    /** The body as bytes (a picture, a file). */
    getBytes: async (path: string, headers?: Record<string, string>) => (await ok("GET", path, { headers })).body,
    postJson: async (path: string, body: unknown, headers?: Record<string, string>) =>
      (
        await ok("POST", path, {
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        })
      ).text,
    close: () => agent.destroy(),
  };
}

/**
 * A bearer header for the API and a session cookie for the screens, made the way the app makes
 * them, for a user of the benchmark's database. Points the app's own modules (imported by the
 * benchmark afterwards) at the web server's database and secret.
 */
export async function signIn(web: { env: NodeJS.ProcessEnv }, userId: number) {
  process.env.DATABASE_URL = web.env.DATABASE_URL;
  process.env.SESSION_SECRET = web.env.SESSION_SECRET;
  const { createSession } = await import("../app/models/session.server");
  const { commitSessionCookie } = await import("../app/utils/session.server");
  const { db } = await import("../app/utils/db.server");
  const api = await createSession(db(), { userId, kind: "api", ttlSeconds: 3600 });
  const screen = await createSession(db(), { userId, kind: "web", ttlSeconds: 3600 });
  const cookie = (await commitSessionCookie(screen.token, screen.expiresAt)).split(";")[0];
  return { auth: { Authorization: `Bearer ${api.token}` }, cookie: { Cookie: cookie } };
}
