import { createAnalyzeReport, resolveCase } from "~/models/analyze-report.server";
import { recomputeFeatures, upsertItem } from "~/models/billing.server";
import { runAnalysis } from "~/services/duplicate-analysis.server";
import type { FileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import type { DB } from "~/utils/db.server";
import { rephotograph } from "./pile-variants";

// The demo organisation's duplicate analysis (issue 19): the add-on, a few measurements that
// count a pile twice (a photo uploaded again, piles photographed again an hour later), and one
// analysis over the last three months run here, with its first case already resolved.
// Run again, it adds nothing.

const DAY_MS = 24 * 3600 * 1000;

export async function seedAnalysis(
  db: DB,
  files: FileStorage,
  organizationId: number,
  opts: { log?: (s: string) => void; now?: Date } = {},
) {
  const log = opts.log ?? (() => {});
  const has = await db
    .selectFrom("analyze_reports")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (has) return null;
  await upsertItem(db, { organizationId }, { package_id: "duplicate_storage_measurements_bundle", quantity: 1 });
  await recomputeFeatures(db, { organizationId }, opts.now ?? new Date());

  const admin = await db
    .selectFrom("roles")
    .select("user_id")
    .where("organization_id", "=", organizationId)
    .where("name", "=", "admin")
    .orderBy("user_id")
    .executeTakeFirst();
  const originals = await db
    .selectFrom("measurements")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where("logs_count", ">", 0)
    .orderBy("id")
    .limit(3)
    .execute();
  for (const [i, m] of originals.entries()) {
    const logs = await db
      .selectFrom("logs")
      .select(["x", "y", "r", "d", "v"])
      .where("measurement_id", "=", m.id)
      .where("is_deleted", "=", false)
      .execute();
    // The first is uploaded again (the same photo file); the others photographed again.
    const copyLogs = i === 0 ? logs : rephotograph(logs, 500 + i).map((l) => ({ ...l, v: 0 }));
    const inserted = await db
      .insertInto("measurements")
      .values({
        organization_id: organizationId,
        storage_id: m.storage_id,
        user_id: m.user_id,
        taken_at: new Date(m.taken_at.getTime() + (i + 1) * 3600_000),
        measured_at: new Date(m.taken_at.getTime() + (i + 1) * 3600_000),
        measurement_type_id: m.measurement_type_id,
        latitude: m.latitude,
        longitude: m.longitude === null ? null : m.longitude + 0.00005,
        log_length: m.log_length,
        logs_count: copyLogs.length,
        volume: i === 0 ? m.volume : m.volume * (copyLogs.length / Math.max(1, logs.length)),
        wood_type_id: m.wood_type_id,
        volume_formula: m.volume_formula,
        comment: i === 0 ? "Uploaded twice by mistake." : "Measured again by the second measurer.",
      })
      .executeTakeFirstOrThrow();
    const id = Number(inserted.insertId);
    await db
      .insertInto("logs")
      .values(copyLogs.map((l) => ({ organization_id: organizationId, measurement_id: id, ...l })))
      .execute();
    if (i === 0 && m.photo_key) {
      await storeOriginalPhoto(db, files, "timber", {
        organizationId,
        measurementId: id,
        data: await files.get(m.photo_key),
        fileName: m.photo_file_name ?? "stack.jpg",
      });
    }
  }

  // The demo always has its admin; without one the report simply has no author.
  const ctx = { organizationId, userId: admin?.user_id ?? null } as { organizationId: number; userId: number };
  const now = opts.now ?? new Date();
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const report = await createAnalyzeReport(db, ctx, {
    name: "Last three months",
    period_from: day(now.getTime() - 92 * DAY_MS),
    period_to: day(now.getTime()),
    storage_ids: [],
    measurement_types: [],
  });
  // Run here rather than queued, so the demo opens with its cases.
  await runAnalysis(db, files, report.id);
  const first = await db
    .selectFrom("analyze_report_cases")
    .select("id")
    .where("analyze_report_id", "=", report.id)
    .orderBy("id")
    .executeTakeFirst();
  if (first) await resolveCase(db, ctx, report.id, first.id);
  const cases = await db
    .selectFrom("analyze_report_cases")
    .select("id")
    .where("analyze_report_id", "=", report.id)
    .execute();
  log(`demo analysis: ${originals.length} duplicated measurements, ${cases.length} case(s), the first resolved`);
  return report.id;
}
