import { json } from "@remix-run/node";
import { sql } from "kysely";
import pg from "pg";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

async function check(fn: () => Promise<unknown>) {
  const started = performance.now();
  try {
    await fn();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** GET /healthcheck: 200 when MySQL and the PostgreSQL job database both answer, 503 otherwise. */
export async function loader() {
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
  const ok = mysql.ok && postgres.ok;
  return json(
    { status: ok ? "ok" : "error", mysql, postgres },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
