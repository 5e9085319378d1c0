import "~/utils/load-env-file-now.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob, closeJobs, enqueuePhotoJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";
import { seedAnalysis } from "./analysis";
import { seedContainers } from "./containers";
import { DEMO, seedDemo } from "./demo";
import { seedExportLayouts } from "./export-layouts";
import { seedInventories } from "./inventories";
import { seedLumberDashboard } from "./lumber-dashboard";
import { seedMixedStack } from "./mixed-stack";
import { seedPublicLinks } from "./public-links";
import { seedReports } from "./reports";
import { seedShipments } from "./shipments";
import { seedTrucks } from "./trucks";

try {
  const result = await seedDemo(db(), fileStorage(), (id, kind) => enqueuePhotoJob(id, addJob, kind), {
    log: (l) => console.log(l),
  });
  await seedPublicLinks(db(), result.organizationId, { log: (l) => console.log(l) });
  await seedLumberDashboard(db(), fileStorage(), result.organizationId, {
    enqueuePhoto: (id, kind) => enqueuePhotoJob(id, addJob, kind),
    log: (l) => console.log(l),
  });
  await seedInventories(db(), result.organizationId, { log: (l) => console.log(l) });
  await seedTrucks(db(), result.organizationId, { log: (l) => console.log(l) });
  await seedShipments(db(), fileStorage(), result.organizationId, {
    enqueuePhoto: (id, kind) => enqueuePhotoJob(id, addJob, kind),
    log: (l) => console.log(l),
  });
  await seedAnalysis(db(), fileStorage(), result.organizationId, { log: (l) => console.log(l) });
  await seedMixedStack(db(), result.organizationId, { log: (l) => console.log(l) });
  await seedContainers(db(), fileStorage(), result.organizationId, {
    enqueuePhoto: (id, kind) => enqueuePhotoJob(id, addJob, kind),
    log: (l) => console.log(l),
  });
  await seedReports(db(), result.organizationId, { log: (l) => console.log(l) });
  await seedExportLayouts(db(), result.organizationId, { log: (l) => console.log(l) });
  if (result.created) console.log(`demo sign-in: ${DEMO.admin.email} / ${DEMO.admin.password}`);
} finally {
  await closeJobs();
  await db().destroy();
}
