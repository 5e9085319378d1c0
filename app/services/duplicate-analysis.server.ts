import { createHash } from "node:crypto";
import sharp from "sharp";
import { differenceHash, findDuplicateCases } from "~/domain/duplicate-measurements";
import {
  createAnalyzeReport,
  failAnalysis,
  finishAnalysis,
  getAnalyzeReportById,
  loadAnalysisMeasurements,
  markAnalysisStarted,
  saveFingerprints,
  type NewAnalyzeReport,
} from "~/models/analyze-report.server";
import type { DB } from "~/utils/db.server";
import { enqueueAnalysisJob } from "./jobs.server";
import type { FileStorage } from "./file-storage.server";
import type { AddJobFunction } from "graphile-worker";

// The duplicate analysis run (the analyze_report job): load the period's measurements, give each
// photo its two fingerprints if it has none yet, let app/domain decide, store the cases.
// docs/decisions/016-duplicate-analysis.md.

/** 64-bit difference hash of an image: greyscale, squeezed to 9×8, neighbours compared. */
export async function photoDhash(image: Buffer) {
  const pixels = await sharp(image).greyscale().resize(9, 8, { fit: "fill" }).raw().toBuffer();
  return differenceHash(pixels);
}

export function photoSha256(file: Buffer) {
  return createHash("sha256").update(file).digest("hex");
}

type Loaded = Awaited<ReturnType<typeof loadAnalysisMeasurements>>[number];

async function fingerprint(db: DB, files: FileStorage, organizationId: number, row: Loaded) {
  const m = row.measurement;
  if ((m.photoSha256 || !row.photoKey) && (m.photoDhash || !(row.thumbnailKey ?? row.photoKey))) return;
  const values: { photo_sha256?: string; photo_dhash?: string } = {};
  try {
    if (!m.photoSha256 && row.photoKey)
      values.photo_sha256 = m.photoSha256 = photoSha256(await files.get(row.photoKey));
    const hashFrom = row.thumbnailKey ?? row.photoKey;
    if (!m.photoDhash && hashFrom) values.photo_dhash = m.photoDhash = await photoDhash(await files.get(hashFrom));
  } catch {
    // A photo file missing or unreadable: compared without it (log ends and place still count).
  }
  if (Object.keys(values).length) await saveFingerprints(db, organizationId, m.id, values);
}

/** Runs one analysis; a report no longer "created" (done, failed) is left alone. */
export async function runAnalysis(
  db: DB,
  files: FileStorage,
  reportId: number,
  job: { attempts: number; maxAttempts: number } = { attempts: 1, maxAttempts: 1 },
  find: typeof findDuplicateCases = findDuplicateCases,
) {
  const report = await getAnalyzeReportById(db, reportId);
  if (!report || report.status !== "created") return;
  try {
    await markAnalysisStarted(db, reportId);
    const rows = await loadAnalysisMeasurements(db, report);
    for (const row of rows) await fingerprint(db, files, report.organization_id, row);
    const cases = find(rows.map((r) => r.measurement));
    await finishAnalysis(db, report, cases, rows.length);
  } catch (error) {
    // The last attempt says why it failed; earlier ones leave it to graphile-worker's retry.
    if (job.attempts >= job.maxAttempts) {
      await failAnalysis(db, reportId, error instanceof Error ? error.message : String(error));
      return;
    }
    throw error;
  }
}

/** Creates the report and its job (keyed by the report, so a retry never doubles it). */
export async function startAnalysis(
  db: DB,
  ctx: Parameters<typeof createAnalyzeReport>[1],
  input: NewAnalyzeReport,
  addJob: AddJobFunction,
) {
  const report = await createAnalyzeReport(db, ctx, input);
  // If the queue is down the row stays "created" and the sweep enqueues it later.
  await enqueueAnalysisJob(report.id, addJob).catch(() => undefined);
  return report;
}
