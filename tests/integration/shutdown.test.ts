import http from "node:http";
import { makeWorkerUtils, type WorkerUtils } from "graphile-worker";
import { createConnection, type Connection } from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePostgresDatabase } from "#db/migrate-lib";
import {
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  insertManyLogs,
  webCookie,
} from "#tests/factories";
import { databases } from "#tests/helpers/db";
import { baseUrl } from "#tests/helpers/http";
import { waitFor } from "#tests/helpers/wait";
import { jsonLines, startWeb } from "#tests/helpers/web-process";
import { startWorker } from "#tests/helpers/worker-process";
import { createExport } from "~/models/export.server";
import { enqueueExportJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";

// SIGTERM stops a process gracefully: the web process finishes the request in flight and refuses
// new connections; the worker lets its running export finish (or, past SHUTDOWN_TIMEOUT_SECONDS,
// hands it back to the queue) and nothing stays locked in graphile-worker's jobs table.
//
// A long export is made by holding a lock on its row in MySQL: the job waits on it as it would on
// a slow query. The workers here use a private job queue, so the run's shared worker never takes it.

let jobsUrl: string;
let utils: WorkerUtils;
let jobsDb: pg.Client;

beforeAll(async () => {
  jobsUrl = `${databases().jobsUrl}_shutdown_${process.pid}`;
  await ensurePostgresDatabase(jobsUrl);
  utils = await makeWorkerUtils({ connectionString: jobsUrl });
  await utils.migrate();
  jobsDb = new pg.Client({ connectionString: jobsUrl });
  await jobsDb.connect();
});

afterAll(async () => {
  await utils?.release();
  await jobsDb?.end();
  const client = new pg.Client({ connectionString: jobsUrl.replace(/\/[^/]+$/, "/postgres") });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${jobsUrl.split("/").pop()}" WITH (FORCE)`);
  await client.end();
});

const workerEnv = (timeoutSeconds: number) => ({
  DATABASE_URL: databases().mysqlUrl,
  JOBS_DATABASE_URL: jobsUrl,
  STORAGE_DIR: databases().storageDir,
  APP_URL: baseUrl(),
  WORKER_CONCURRENCY: "1",
  SHUTDOWN_TIMEOUT_SECONDS: String(timeoutSeconds),
});

async function exportInFlight() {
  const org = await createOrganization();
  const user = await createUser(org.id);
  const storage = await createStorage(org.id, { name: "Yard" });
  const m = await createMeasurement(org.id, storage.id);
  await insertManyLogs(org.id, m.id, 50);
  const row = await createExport(
    db(),
    { organizationId: org.id, userId: user.id },
    { kind: "excel", reportType: "log_by_log_excel", name: "Logs", params: { measurement_ids: [m.id] } },
  );
  // The lock that keeps the job waiting until the test lets go.
  const lock: Connection = await createConnection({ uri: databases().mysqlUrl });
  await lock.query("START TRANSACTION");
  await lock.query("SELECT id FROM exports WHERE id = ? FOR UPDATE", [row.id]);
  await enqueueExportJob("excel", row.id, utils.addJob);
  const exportRow = () => db().selectFrom("exports").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
  return { row, lock, exportRow };
}

const jobs = async () =>
  (
    await jobsDb.query<{
      task_identifier: string;
      locked_at: Date | null;
      attempts: number;
      last_error: string | null;
    }>(
      "SELECT task_identifier, locked_at, attempts, last_error FROM graphile_worker.jobs WHERE task_identifier = 'excel_export'",
    )
  ).rows;

describe("the worker on SIGTERM", () => {
  it("lets the running export finish, then exits, leaving no job locked", { timeout: 120_000 }, async () => {
    const worker = startWorker(workerEnv(30));
    const { lock, exportRow } = await exportInFlight();
    try {
      await waitFor(async () => (await jobs()).some((j) => j.locked_at), { timeoutMs: 60_000, what: "the job taken" });
      worker.child.kill("SIGTERM");
      await waitFor(async () => jsonLines(worker.logs).some((l) => l.msg === "shutdown"), { what: "the shutdown" });
      // Still running: it waits for its export.
      await new Promise((r) => setTimeout(r, 1000));
      expect(worker.child.exitCode).toBeNull();
      expect((await exportRow()).status).toBe(0);
      await lock.query("COMMIT");
      expect(await worker.exited).toBe(0);
      expect((await exportRow()).status).toBe(1);
      expect(await jobs()).toEqual([]);
      const job = jsonLines(worker.logs).find((l) => l.msg === "job" && l.task === "excel_export");
      expect(job).toMatchObject({ outcome: "success", attempt: 1 });
    } finally {
      await lock.end();
      await worker.kill("SIGKILL");
    }
  });

  it("past its timeout, unlocks the export's job for another worker and exits", { timeout: 120_000 }, async () => {
    const worker = startWorker(workerEnv(1));
    const { lock, exportRow } = await exportInFlight();
    try {
      await waitFor(async () => (await jobs()).some((j) => j.locked_at), { timeoutMs: 60_000, what: "the job taken" });
      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      const [job] = await jobs();
      expect(job.locked_at).toBeNull();
      expect(job.attempts).toBe(1);
      expect((await exportRow()).status).toBe(0);
      expect(jsonLines(worker.logs).at(-1)).toMatchObject({ msg: "stopped", handedBack: 1 });
    } finally {
      await lock.query("ROLLBACK").catch(() => {});
      await lock.end();
      await worker.kill("SIGKILL");
    }
  });
});

describe("the web process on SIGTERM", () => {
  it("finishes the request in flight, refuses new connections, ends realtime streams, exits 0", async () => {
    const web = await startWeb({
      DATABASE_URL: databases().mysqlUrl,
      JOBS_DATABASE_URL: databases().jobsUrl,
      STORAGE_DIR: databases().storageDir,
      APP_URL: "http://127.0.0.1",
      SHUTDOWN_TIMEOUT_SECONDS: "20",
    });
    const org = await createOrganization();
    const user = await createUser(org.id);
    try {
      // A realtime stream, open when the signal comes: it is ended (the browser reconnects elsewhere).
      const stream = await fetch(`${web.baseUrl}/realtime?channel=user:${user.id}`, {
        headers: { Cookie: await webCookie(user.id) },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("event: ready");
      const streamEnded = (async () => {
        try {
          while (!(await reader.read()).done);
        } catch {
          // a destroyed connection ends it too
        }
        return true;
      })();

      // A request whose body is still arriving when the signal comes.
      const answer = new Promise<{ status: number; body: string; requestId: string }>((resolve, reject) => {
        const req = http.request(
          `${web.baseUrl}/api/web_app/v1/login`,
          { method: "POST", headers: { "Content-Type": "application/json", "Content-Length": "40" } },
          (res) => {
            let body = "";
            res.on("data", (c) => (body += c));
            res.on("end", () =>
              resolve({ status: res.statusCode!, body, requestId: String(res.headers["x-request-id"]) }),
            );
          },
        );
        req.on("error", reject);
        req.write('{"email":"a@b.test",');
        (async () => {
          await waitFor(async () => jsonLines(web.logs).some((l) => l.msg === "shutdown"), { what: "the shutdown" });
          // New connections are refused while the one in flight is still served.
          await expect(fetch(`${web.baseUrl}/healthcheck/live`)).rejects.toThrow();
          req.end('"password":"x"}'.padEnd(20, " "));
        })().catch(reject);
      });
      await new Promise((r) => setTimeout(r, 300));
      web.child.kill("SIGTERM");
      const { status, body, requestId } = await answer;
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(() => JSON.parse(body)).not.toThrow();
      expect(await web.exited).toBe(0);
      expect(await streamEnded).toBe(true);
      const lines = jsonLines(web.logs);
      expect(lines.find((l) => l.requestId === requestId)).toMatchObject({ method: "POST", status });
      expect(lines.at(-1)).toMatchObject({ msg: "stopped" });
    } finally {
      await web.kill("SIGKILL");
    }
  });
});
