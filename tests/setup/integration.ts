import { afterAll, beforeEach, inject } from "vitest";
import { cleanDatabase } from "#tests/helpers/db";
import { closeJobs } from "~/services/jobs.server";
import { closeRealtime } from "~/services/realtime.server";
import { db, setDb } from "~/utils/db.server";
import { resetEnv } from "~/utils/env.server";

// Point this worker at its project's databases and app before anything reads the settings.
const databases = inject("databases");
process.env.DATABASE_URL = databases.mysqlUrl;
process.env.JOBS_DATABASE_URL = databases.jobsUrl;
process.env.STORAGE_DIR = databases.storageDir;
process.env.SESSION_SECRET = databases.sessionSecret;
process.env.APP_URL = inject("app").baseUrl;
resetEnv();

beforeEach(async () => {
  await cleanDatabase();
});

afterAll(async () => {
  await closeJobs();
  await closeRealtime();
  await db().destroy();
  setDb(undefined);
});
