import { makeWorkerUtils, type AddJobFunction, type WorkerUtils } from "graphile-worker";
import { env } from "~/utils/env.server";

// Jobs live in PostgreSQL (graphile-worker); the rows they serve live in MySQL with a status.
// Every job has a key derived from its row (jobs/enqueue.ts), so adding it again never doubles work.

let utils: Promise<WorkerUtils> | undefined;
function workerUtils() {
  utils ??= makeWorkerUtils({ connectionString: env().JOBS_DATABASE_URL });
  return utils;
}

export const addJob: AddJobFunction = async (identifier, payload, spec) =>
  (await workerUtils()).addJob(identifier, payload, spec);

export async function closeJobs() {
  if (utils) {
    const u = await utils;
    utils = undefined;
    await u.release();
  }
}
