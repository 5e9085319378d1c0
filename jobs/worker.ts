import "~/utils/load-env-file-now.server";
import http from "node:http";
import { makeWorkerUtils, run } from "graphile-worker";
import { closeMetrics, jobMetrics, metricsAllowed, metricsText } from "~/services/metrics.server";
import { closeRealtime } from "~/services/realtime.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { crontab, taskList } from "./task-list";

const e = env();
const log = (fields: Record<string, unknown>) => {
  if (e.REQUEST_LOG === "json")
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
};

const runner = await run({
  connectionString: e.JOBS_DATABASE_URL,
  concurrency: e.WORKER_CONCURRENCY,
  taskList,
  crontab,
  // This process handles SIGTERM itself (below), with graphile-worker's graceful shutdown.
  noHandleSignals: true,
  // Tasks that watch their abort signal are asked to stop when the shutdown time is up.
  // Completions and failures go through graphile-worker's batchers, which it flushes before it
  // releases its pool on shutdown; unbatched, a job finishing during the shutdown could stay locked.
  preset: {
    worker: {
      gracefulShutdownAbortTimeout: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  },
});
console.log(`worker: running ${Object.keys(taskList).join(", ")} (concurrency ${e.WORKER_CONCURRENCY})`);

// One JSON line and the job series per job run (README: Operations).
const metrics = jobMetrics();
const startedAt = new Map<string, bigint>();
const runningOn = new Set<string>();
runner.events.on("job:start", ({ job }) => {
  startedAt.set(job.id, process.hrtime.bigint());
  runningOn.add(job.id);
});
runner.events.on("job:complete", ({ job, error }) => {
  const started = startedAt.get(job.id);
  startedAt.delete(job.id);
  runningOn.delete(job.id);
  const seconds = started ? Number(process.hrtime.bigint() - started) / 1e9 : 0;
  const outcome = error ? "error" : "success";
  metrics.total.inc({ task: job.task_identifier, outcome });
  metrics.duration.observe({ task: job.task_identifier, outcome }, seconds);
  log({
    level: error ? "error" : "info",
    msg: "job",
    jobId: job.id,
    task: job.task_identifier,
    attempt: job.attempts,
    maxAttempts: job.max_attempts,
    outcome,
    durationMs: Math.round(seconds * 10_000) / 10,
    worker: process.pid,
    error: error ? (error instanceof Error ? error.message : String(error)).slice(0, 500) : undefined,
  });
});

// The worker's Prometheus series on WORKER_METRICS_PORT (same METRICS_TOKEN as the web's /metrics).
let metricsServer: http.Server | undefined;
if (process.env.WORKER_METRICS_PORT) {
  metricsServer = http
    .createServer(async (req, res) => {
      if (req.url !== "/metrics" || !metricsAllowed(req.headers.authorization ?? null, e.METRICS_TOKEN)) {
        res.writeHead(404).end("Not Found");
        return;
      }
      const { body, contentType } = await metricsText();
      res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body);
    })
    .listen(Number(process.env.WORKER_METRICS_PORT), process.env.HOST || "0.0.0.0");
}

// Graceful shutdown: stop taking jobs, let running ones finish; when SHUTDOWN_TIMEOUT_SECONDS
// is up they are asked to abort, and what still runs is handed back to the queue (failed with
// a message, retried later) so nothing stays locked.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log({ level: "info", msg: "shutdown", signal, running: startedAt.size, worker: process.pid });
  const graceful = runner.stop(`worker stopping on ${signal}`);
  const timer = setTimeout(
    () =>
      void (async () => {
        log({ level: "warn", msg: "shutdown timeout: handing running jobs back", running: startedAt.size });
        // The jobs still running are unlocked, so another worker takes them at once.
        try {
          const utils = await makeWorkerUtils({ connectionString: e.JOBS_DATABASE_URL });
          // Jobs are locked in the name of this process's worker pool.
          const { rows } = await utils.withPgClient((client) =>
            client.query<{ locked_by: string }>(
              "SELECT DISTINCT locked_by FROM graphile_worker.jobs WHERE id = ANY($1::bigint[]) AND locked_by IS NOT NULL",
              [[...runningOn]],
            ),
          );
          await utils.forceUnlockWorkers(rows.map((r) => r.locked_by));
          await utils.release();
        } catch (error) {
          console.error("worker: could not unlock its jobs (graphile-worker unlocks them after 4 hours)", error);
        }
        log({ level: "info", msg: "stopped", worker: process.pid, handedBack: runningOn.size });
        process.exit(0);
      })(),
    (e.SHUTDOWN_TIMEOUT_SECONDS + 1) * 1000,
  );
  await graceful.catch((error) => console.error("worker: graceful shutdown", error));
  clearTimeout(timer);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

await runner.promise.catch((error) => console.error("worker: stopped with an error", error));
metricsServer?.close();
await closeRealtime();
await closeMetrics();
await db().destroy();
log({ level: "info", msg: "stopped", worker: process.pid });
process.exit(0);
