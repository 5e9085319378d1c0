import { sql } from "kysely";
import pg from "pg";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

// Liveness (the process runs) and readiness (it can serve: both databases answer and it is not
// stopping) for load balancers and orchestrators (README: Operations).

const DRAINING = Symbol.for("timber.draining");
type WithDraining = typeof globalThis & { [DRAINING]?: boolean };

/** Set by the web process when SIGTERM arrives: readiness answers 503 from then on. */
export function setDraining(value: boolean) {
  (globalThis as WithDraining)[DRAINING] = value;
}
export function isDraining() {
  return (globalThis as WithDraining)[DRAINING] === true;
}

async function check(fn: () => Promise<unknown>) {
  const started = performance.now();
  try {
    await fn();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function databaseChecks() {
  const [mysql, postgres] = await Promise.all([
    check(() => sql`SELECT 1`.execute(db())),
    check(async () => {
      const client = new pg.Client({ connectionString: env().JOBS_DATABASE_URL, connectionTimeoutMillis: 3000 });
      await client.connect();
      try {
        await client.query("SELECT 1 FROM graphile_worker.jobs LIMIT 1");
      } finally {
        await client.end();
      }
    }),
  ]);
  return { ok: mysql.ok && postgres.ok, mysql, postgres };
}
