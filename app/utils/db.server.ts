import { Kysely, MysqlDialect } from "kysely";
import { createPool } from "mysql2";
import type { Database } from "#db/schema";
import { env } from "./env.server";

export type DB = Kysely<Database>;

export function createDb(url: string, connectionLimit = 10): DB {
  const pool = createPool({
    uri: url,
    connectionLimit,
    // All DATETIMEs are UTC; numbers stay numbers.
    timezone: "Z",
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: "utf8mb4",
    typeCast(field, next) {
      // MariaDB reports BOOLEAN as TINY(1): give the app real booleans.
      if (field.type === "TINY" && field.length === 1) {
        const value = field.string();
        return value === null ? null : value === "1";
      }
      return next();
    },
  });
  const kysely = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  poolsOf().set(kysely, { pool, limit: connectionLimit });
  return kysely;
}

// Which mysql2 pool serves which Kysely instance, for /metrics (kept on globalThis: the web
// server's pipeline and the Remix build are separate bundles).
const POOLS = Symbol.for("timber.mysql-pools");
type PoolEntry = { pool: ReturnType<typeof createPool>; limit: number };
function poolsOf(): WeakMap<DB, PoolEntry> {
  const g = globalThis as typeof globalThis & { [POOLS]?: WeakMap<DB, PoolEntry> };
  g[POOLS] ??= new WeakMap();
  return g[POOLS];
}

/** Connections of a database's pool: open, in use, and requests waiting for one. */
export function mysqlPoolStats(instance: DB) {
  const entry = poolsOf().get(instance);
  if (!entry) return null;
  // mysql2 exposes no counters; these are its pool's own lists.
  const internals = entry.pool as unknown as {
    _allConnections?: { length: number };
    _freeConnections?: { length: number };
    _connectionQueue?: { length: number };
  };
  const open = internals._allConnections?.length ?? 0;
  const free = internals._freeConnections?.length ?? 0;
  return { limit: entry.limit, open, inUse: open - free, waiting: internals._connectionQueue?.length ?? 0 };
}

declare global {
  var __db: DB | undefined;
}

/** One pool per process (kept across dev rebuilds). */
export function db(): DB {
  globalThis.__db ??= createDb(env().DATABASE_URL);
  return globalThis.__db;
}

/** Replace the process-wide database (tests point it at their own database). */
export function setDb(instance: DB | undefined) {
  globalThis.__db = instance;
}
