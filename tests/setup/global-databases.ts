import { randomBytes } from "node:crypto";
import { createConnection } from "mysql2/promise";
import pg from "pg";
import { migrateAll } from "#db/migrate-lib";
import type { TestProject } from "vitest/node";

// Each test run gets its own MySQL and PostgreSQL databases, migrated once, dropped at the end.
const MYSQL_ROOT = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const PG_ROOT = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";

export default async function setup(project: TestProject) {
  const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const mysqlName = `timber_test_${suffix}`;
  const pgName = `timber_jobs_test_${suffix}`;
  const mysqlUrl = `${MYSQL_ROOT}/${mysqlName}`;
  const jobsUrl = `${PG_ROOT}/${pgName}`;

  await migrateAll({ mysqlUrl, jobsUrl });

  process.env.DATABASE_URL = mysqlUrl;
  process.env.JOBS_DATABASE_URL = jobsUrl;
  process.env.STORAGE_DIR = `/tmp/timber-test-files-${suffix}`;
  // One secret for the whole run: the app servers of every project and the test workers share it.
  process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
  process.env.NODE_ENV = "test";
  // Each project (integration, e2e) has its own databases; workers read them from here, not
  // from process.env, which the next project's setup overwrites.
  project.provide("databases", {
    mysqlUrl,
    jobsUrl,
    storageDir: process.env.STORAGE_DIR,
    sessionSecret: process.env.SESSION_SECRET,
  });

  return async () => {
    const conn = await createConnection({ uri: MYSQL_ROOT });
    await conn.query(`DROP DATABASE IF EXISTS \`${mysqlName}\``);
    await conn.end();
    const client = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
    await client.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databases: { mysqlUrl: string; jobsUrl: string; storageDir: string; sessionSecret: string };
  }
}
