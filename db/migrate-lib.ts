import { runMigrations } from "graphile-worker";
import { Migrator, sql } from "kysely";
import { createConnection } from "mysql2/promise";
import pg from "pg";
import { LOG_FORMULAS } from "~/domain/log-volume";
import { createDb, type DB } from "~/utils/db.server";
import { BUILTIN_WOOD_QUALITIES, BUILTIN_WOOD_TYPES } from "./builtin-lookups";
import { migrations } from "./migrations";

/** Create the MySQL database named in the URL when it does not exist yet (utf8mb4). */
export async function ensureMysqlDatabase(url: string) {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  u.pathname = "/";
  const conn = await createConnection({ uri: u.toString() });
  try {
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${name.replaceAll("`", "")}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await conn.end();
  }
}

export async function ensurePostgresDatabase(url: string) {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  u.pathname = "/postgres";
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', "")}"`);
  } finally {
    await client.end();
  }
}

export async function migrateMysql(db: DB) {
  // Areas are built on branches that each take a migration number; one merged after a higher
  // number has run (0013 after 0017) must still run rather than stop the database at startup.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === "Error") console.error(`migration ${r.migrationName} failed`);
  }
  if (error) throw error;
  return results ?? [];
}

/** Built-in lookups are data the code relies on, so migrating keeps them in step. */
export async function upsertBuiltinLookups(db: DB) {
  await db.transaction().execute(async (trx) => {
    for (const [table, rows] of [
      ["wood_types", BUILTIN_WOOD_TYPES],
      ["wood_qualities", BUILTIN_WOOD_QUALITIES],
    ] as const) {
      for (const row of rows) {
        await trx
          .insertInto(table)
          .values({ id: row.id, name: row.name, organization_id: null })
          .onDuplicateKeyUpdate({ name: row.name })
          .execute();
      }
    }
    let position = 0;
    for (const [key, meta] of Object.entries(LOG_FORMULAS)) {
      position += 1;
      await trx
        .insertInto("volume_formulas")
        .values({ key, unit: meta.unit, position })
        .onDuplicateKeyUpdate({ unit: meta.unit, position })
        .execute();
    }
  });
}

/** Everything "migrate" means: both databases created and at the latest schema. */
export async function migrateAll(opts: { mysqlUrl: string; jobsUrl: string; log?: (line: string) => void }) {
  const log = opts.log ?? (() => {});
  await ensureMysqlDatabase(opts.mysqlUrl);
  const db = createDb(opts.mysqlUrl, 2);
  try {
    const results = await migrateMysql(db);
    for (const r of results) log(`mysql: ${r.migrationName} ${r.status}`);
    await upsertBuiltinLookups(db);
    await sql`SELECT 1`.execute(db);
  } finally {
    await db.destroy();
  }
  await ensurePostgresDatabase(opts.jobsUrl);
  await runMigrations({ connectionString: opts.jobsUrl, logger: undefined });
  log("postgres: graphile-worker schema ready");
}
