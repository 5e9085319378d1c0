import "~/utils/load-env-file-now.server";
import { enqueuePhotoJob } from "../../jobs/enqueue";
import { fileStorage } from "~/services/file-storage.server";
import { addJob, closeJobs } from "~/services/jobs.server";
import { db } from "~/utils/db.server";
import { DEMO, seedDemo } from "./demo";

try {
  const result = await seedDemo(db(), fileStorage(), (id) => enqueuePhotoJob(id, addJob), { log: (l) => console.log(l) });
  if (result.created) console.log(`demo sign-in: ${DEMO.admin.email} / ${DEMO.admin.password}`);
} finally {
  await closeJobs();
  await db().destroy();
}
