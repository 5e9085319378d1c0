import { runReportGeneration } from "~/models/report.server";
import type { DB } from "~/utils/db.server";

// The demo organisation's reports (docs/decisions/021-reports.md): two finished reports of its
// measurements that have an assortment, the first confirmed, the second not yet opened (the
// sidebar badge shows 1). Tallied at once, without the worker. Run again, it adds nothing.

export async function seedReports(db: DB, organizationId: number, opts: { log?: (s: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  const existing = await db
    .selectFrom("reports")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (existing) return 0;
  const measurements = await db
    .selectFrom("measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where("inventory_id", "is", null)
    .where("assortment_id", "is not", null)
    .orderBy("taken_at", "desc")
    .limit(8)
    .execute();
  const reports = [
    { name: "Sawlogs for Valga sawmill", volume_formula: "cylinder", confirmed: true, ids: measurements.slice(0, 4) },
    { name: "Export logs, JAS", volume_formula: "jas", confirmed: false, ids: measurements.slice(4, 8) },
  ];
  const today = new Date().toISOString().slice(0, 10);
  for (const r of reports) {
    const inserted = await db
      .insertInto("reports")
      .values({
        organization_id: organizationId,
        name: r.name,
        volume_formula: r.volume_formula,
        volume_unit: "m^3",
        reported_at: today,
        generating_in_progress: true,
        generation_enqueued_at: new Date(),
      })
      .executeTakeFirstOrThrow();
    const id = Number(inserted.insertId);
    if (r.ids.length)
      await db
        .insertInto("report_measurements")
        .values(r.ids.map((m) => ({ organization_id: organizationId, report_id: id, measurement_id: m.id })))
        .execute();
    await runReportGeneration(db, id);
    if (r.confirmed)
      await db
        .updateTable("reports")
        .set({ confirmed: true, confirmed_at: new Date(), seen_at: new Date() })
        .where("id", "=", id)
        .execute();
  }
  log(`reports: ${reports.length} demo reports`);
  return reports.length;
}
