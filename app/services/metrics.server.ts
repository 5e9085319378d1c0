import crypto from "node:crypto";
import pg from "pg";
import client from "prom-client";
import { db, mysqlPoolStats } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { realtimeStats } from "./realtime.server";

// Prometheus series of a process (prom-client's one registry per process). Each process is its
// own scrape target: the web process serves /metrics (requests, queue depth, pools), a worker
// serves its job series on WORKER_METRICS_PORT (README: Operations). Metrics are made once per
// process even though the web server's pipeline and the Remix build both import this module.

function once<T extends client.Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

let defaultsStarted = false;
function startDefaults() {
  if (defaultsStarted || client.register.getSingleMetric("process_cpu_seconds_total")) return;
  defaultsStarted = true;
  client.collectDefaultMetrics();
}

export function requestMetrics() {
  startDefaults();
  return once(
    "http_request_duration_seconds",
    () =>
      new client.Histogram({
        name: "http_request_duration_seconds",
        help: "Time to answer a request, by Remix route id (static: public files), method and status",
        labelNames: ["route", "method", "status"] as const,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      }),
  );
}

export function jobMetrics() {
  startDefaults();
  return {
    total: once(
      "jobs_total",
      () =>
        new client.Counter({
          name: "jobs_total",
          help: "Jobs run by this worker, by task and outcome (success, error)",
          labelNames: ["task", "outcome"] as const,
        }),
    ),
    duration: once(
      "job_duration_seconds",
      () =>
        new client.Histogram({
          name: "job_duration_seconds",
          help: "Time one job run took, by task and outcome",
          labelNames: ["task", "outcome"] as const,
          buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
        }),
    ),
  };
}

/** The series read when scraped: the job queue in PostgreSQL and the connection pools. */
export function registerCollectedMetrics(queueDepth: () => Promise<{ task: string; state: string; count: number }[]>) {
  startDefaults();
  once(
    "jobs_queue_depth",
    () =>
      new client.Gauge({
        name: "jobs_queue_depth",
        help: "Jobs in the queue by task and state (waiting: runnable now, scheduled: later, running: locked, failed: out of attempts)",
        labelNames: ["task", "state"] as const,
        async collect() {
          this.reset();
          try {
            for (const row of await queueDepth()) this.set({ task: row.task, state: row.state }, row.count);
          } catch {
            // The queue's database is down: /healthcheck/ready says so; the series is left empty.
          }
        },
      }),
  );
  once(
    "db_pool_connections",
    () =>
      new client.Gauge({
        name: "db_pool_connections",
        help: "Connections of this process's pools (mysql: the app database; pg_notify: realtime publishing)",
        labelNames: ["pool", "state"] as const,
        collect() {
          this.reset();
          const mysql = mysqlPoolStats(db());
          if (mysql) {
            this.set({ pool: "mysql", state: "limit" }, mysql.limit);
            this.set({ pool: "mysql", state: "open" }, mysql.open);
            this.set({ pool: "mysql", state: "in_use" }, mysql.inUse);
            this.set({ pool: "mysql", state: "waiting" }, mysql.waiting);
          }
          const pg = realtimeStats();
          if (pg) {
            this.set({ pool: "pg_notify", state: "open" }, pg.total);
            this.set({ pool: "pg_notify", state: "in_use" }, pg.total - pg.idle);
            this.set({ pool: "pg_notify", state: "waiting" }, pg.waiting);
          }
        },
      }),
  );
  once(
    "realtime_subscribers",
    () =>
      new client.Gauge({
        name: "realtime_subscribers",
        help: "Server-Sent-Event connections this web process feeds",
        collect() {
          this.set(realtimeStats()?.subscribers ?? 0);
        },
      }),
  );
}

export async function metricsText() {
  return { body: await client.register.metrics(), contentType: client.register.contentType };
}

/** Checks the bearer token of a /metrics scrape against METRICS_TOKEN (constant time). */
export function metricsAllowed(authorization: string | null, token: string | undefined) {
  if (!token) return false;
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "";
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(given), digest(token));
}

// ---- the job queue, read from PostgreSQL when scraped ----

let jobsPool: pg.Pool | undefined;

/** Jobs in graphile-worker's queue by task and state. */
export async function queueDepth() {
  jobsPool ??= new pg.Pool({ connectionString: env().JOBS_DATABASE_URL, max: 1, connectionTimeoutMillis: 3000 });
  const { rows } = await jobsPool.query<{ task: string; state: string; count: number }>(`
    SELECT task_identifier AS task,
           CASE WHEN locked_at IS NOT NULL THEN 'running'
                WHEN attempts >= max_attempts THEN 'failed'
                WHEN run_at > now() THEN 'scheduled'
                ELSE 'waiting' END AS state,
           count(*)::int AS count
      FROM graphile_worker.jobs
     GROUP BY 1, 2`);
  return rows;
}

export async function closeMetrics() {
  await jobsPool?.end();
  jobsPool = undefined;
}
