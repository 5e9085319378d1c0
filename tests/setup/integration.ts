import { afterAll, beforeEach } from "vitest";
import { closeJobs } from "~/services/jobs.server";
import { closeRealtime } from "~/services/realtime.server";
import { db, setDb } from "~/utils/db.server";
import { cleanDatabase } from "#tests/helpers/db";

beforeEach(async () => {
  await cleanDatabase();
});

afterAll(async () => {
  await closeJobs();
  await closeRealtime();
  await db().destroy();
  setDb(undefined);
});
