import fs from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import { makeWorkerUtils } from "graphile-worker";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ensurePostgresDatabase } from "#db/migrate-lib";
import { createMeasurement, createOrganization, createStorage, createUser, insertManyLogs } from "#tests/factories";
import { databases } from "#tests/helpers/db";
import { baseUrl } from "#tests/helpers/http";
import { waitFor } from "#tests/helpers/wait";
import { startWorker } from "#tests/helpers/worker-process";
import { createExport } from "~/models/export.server";
import { fileStorage } from "~/services/file-storage.server";
import { enqueueExportJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";

// A worker killed (SIGKILL) in the middle of a big export leaves no half file under the export's
// key, and the export completes once a worker runs again: the sweep sees the stopped heartbeat
// and enqueues the job again under the same key.
//
// The test's workers use their own job queue (a private PostgreSQL database) on the run's MySQL
// database, so the run's shared worker never takes this job and is never the one killed.

const LOGS = 300_000;

describe("a worker killed mid-export", () => {
  it("leaves no half file and the export completes after restart", { timeout: 240_000 }, async () => {
    const org = await createOrganization();
    const user = await createUser(org.id);
    const storage = await createStorage(org.id, { name: "Big yard" });
    const m = await createMeasurement(org.id, storage.id);
    await insertManyLogs(org.id, m.id, LOGS);

    const jobsUrl = `${databases().jobsUrl}_crash_${process.pid}`;
    await ensurePostgresDatabase(jobsUrl);
    const env = {
      DATABASE_URL: databases().mysqlUrl,
      JOBS_DATABASE_URL: jobsUrl,
      STORAGE_DIR: databases().storageDir,
      APP_URL: baseUrl(),
      JOB_STALE_AFTER_SECONDS: "10",
      WORKER_CONCURRENCY: "1",
    };
    const first = startWorker(env);
    let second: ReturnType<typeof startWorker> | undefined;
    const utils = await makeWorkerUtils({ connectionString: jobsUrl });
    try {
      const row = await createExport(
        db(),
        { organizationId: org.id, userId: user.id },
        {
          kind: "excel",
          reportType: "log_by_log_excel",
          name: "Big log by log",
          params: { measurement_ids: [m.id] },
        },
      );
      await enqueueExportJob("excel", row.id, utils.addJob);
      const exportRow = () => db().selectFrom("exports").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();

      // Kill it once it is visibly writing.
      await waitFor(async () => (await exportRow()).progress > 0, {
        timeoutMs: 60_000,
        intervalMs: 20,
        what: "the export to start writing",
      });
      await first.kill("SIGKILL");
      const killed = await exportRow();
      expect(killed.status).toBe(0);
      expect(killed.file_key).toBeNull();
      const dir = path.join(databases().storageDir, "organizations", String(org.id), "exports", String(row.id));
      const complete = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith(".part")) : [];
      expect(complete).toEqual([]);

      // A new worker: the job is still locked by the dead one, so only the sweep can revive it.
      second = startWorker(env);
      await waitFor(async () => (await exportRow()).heartbeat_at! < new Date(Date.now() - 10_500), {
        timeoutMs: 30_000,
        intervalMs: 250,
        what: "the heartbeat to go stale",
      });
      await utils.addJob("sweep_pending", {}, { jobKey: `sweep_pending:crash-${Date.now()}` });
      const done = await waitFor(
        async () => {
          const r = await exportRow();
          return r.status !== 0 ? r : null;
        },
        { timeoutMs: 120_000, intervalMs: 250, what: "the export to finish after the restart" },
      );
      expect(done.status).toBe(1);
      expect(done.attempts).toBe(1);
      expect(done.row_count).toBe(LOGS);

      // The file is whole: every log is in it (read back with exceljs' streaming reader).
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(await fileStorage().stream(done.file_key!), {
        worksheets: "emit",
        sharedStrings: "cache",
      });
      let rows = 0;
      let last: unknown[] = [];
      for await (const ws of reader) {
        for await (const r of ws) {
          rows++;
          last = r.values as unknown[];
        }
      }
      expect(rows).toBe(LOGS + 1);
      expect(last[1]).toBe("Big yard");
      expect(last[4]).toBe(LOGS);
    } finally {
      await first.kill("SIGKILL");
      await second?.kill("SIGTERM");
      await utils.release();
      const client = new pg.Client({ connectionString: jobsUrl.replace(/\/[^/]+$/, "/postgres") });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${jobsUrl.split("/").pop()}" WITH (FORCE)`);
      await client.end();
    }
  });
});
