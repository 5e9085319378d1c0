import { runExport } from "~/services/exports.server";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";
import type { Task } from "graphile-worker";

/** excel_export / pdf_export {exportId}: one export file (app/services/exports.server.ts). */
export const exportTask: Task = async (payload, helpers) => {
  const exportId = Number((payload as { exportId?: unknown }).exportId);
  if (!Number.isInteger(exportId)) throw new Error("export jobs need an exportId");
  await runExport(db(), fileStorage(), exportId, {
    attempts: helpers.job.attempts,
    maxAttempts: helpers.job.max_attempts,
  });
};
