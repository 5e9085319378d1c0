import { afterAll, beforeEach } from "vitest";
import { closeJobs } from "~/services/jobs.server";
import { closeRealtime } from "~/services/realtime.server";
import { db, setDb } from "~/utils/db.server";
import { cleanDatabase } from "#tests/helpers/db";
import { inject } from "vitest";

// When the integration and e2e projects run in one vitest invocation, each project's global setup
// sets process.env for its own databases and the later one wins: point this worker at its own
// project's databases (the ones its app was started with).
{
  const dbs = inject("databases");
  process.env.DATABASE_URL = dbs.mysqlUrl;
  process.env.JOBS_DATABASE_URL = dbs.jobsUrl;
  process.env.STORAGE_DIR = dbs.storageDir;
  process.env.SESSION_SECRET = dbs.sessionSecret;
  process.env.APP_URL = inject("app").baseUrl;
}

beforeEach(async () => {
  await cleanDatabase();
});

afterAll(async () => {
  await closeJobs();
  await closeRealtime();
  await db().destroy();
  setDb(undefined);
});
