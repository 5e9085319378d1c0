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
  return new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
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
