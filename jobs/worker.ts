import "~/utils/load-env-file-now.server";
import { run } from "graphile-worker";
import { closeRealtime } from "~/services/realtime.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { crontab, taskList } from "./task-list";

const e = env();
const runner = await run({
  connectionString: e.JOBS_DATABASE_URL,
  concurrency: e.WORKER_CONCURRENCY,
  taskList,
  crontab,
  noHandleSignals: false,
});
console.log(`worker: running ${Object.keys(taskList).join(", ")} (concurrency ${e.WORKER_CONCURRENCY})`);

await runner.promise;
await closeRealtime();
await db().destroy();
