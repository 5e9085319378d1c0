import "~/utils/load-env-file-now.server";
import { env } from "~/utils/env.server";
import { migrateAll } from "./migrate-lib";

const e = env();
try {
  await migrateAll({ mysqlUrl: e.DATABASE_URL, jobsUrl: e.JOBS_DATABASE_URL, log: (l) => console.log(l) });
  console.log("databases migrated");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(
    "Could not migrate. Is MariaDB/MySQL running at DATABASE_URL and PostgreSQL at JOBS_DATABASE_URL? " +
      "See README, section 'Databases'.",
  );
  process.exit(1);
}
