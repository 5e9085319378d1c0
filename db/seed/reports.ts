import { sql } from "kysely";
import { runReportGeneration } from "~/models/report.server";
import type { DB } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { DEMO } from "./demo";

// The demo organisation's reports (docs/decisions/021-reports.md): two finished reports of its
// measurements that have an assortment, the first confirmed, the second not yet opened (the
// sidebar badge shows 1), and one sent to the partner organisation (the demo's second one,
// Northern Sawmill AS, chosen by its registration code as the spec's recipient) that its admin
// (PARTNER_ADMIN) finds new in their own /reports and may confirm. Tallied at once, without the
// worker. Run again, it adds nothing; a database seeded before the partner's report gets it.

export const PARTNER_ADMIN = {
  email: "buyer@demo.timber.test",
  password: DEMO.admin.password,
  name: "Pekka Ostaja",
};
const PARTNER_CODE = "DEMO-0002";
const PARTNER_REPORT = "Spruce logs for Northern Sawmill";

export async function seedReports(db: DB, organizationId: number, opts: { log?: (s: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  const own = await seedOwnReports(db, organizationId, log);
  const partner = await seedPartnerReport(db, organizationId, log);
  return own + partner;
}

/** A finished report of these measurements (its rows and tallies), as the job would leave it. */
async function insertReport(
  db: DB,
  organizationId: number,
  r: { name: string; volume_formula: string; recipient_organization_id?: number | null; ids: Array<{ id: number }> },
) {
  const inserted = await db
    .insertInto("reports")
    .values({
      organization_id: organizationId,
      recipient_organization_id: r.recipient_organization_id ?? null,
      name: r.name,
      volume_formula: r.volume_formula,
      volume_unit: "m^3",
      reported_at: new Date().toISOString().slice(0, 10),
      generating_in_progress: true,
      generation_enqueued_at: new Date(),
      last_added_count: r.ids.length,
    })
    .executeTakeFirstOrThrow();
  const id = Number(inserted.insertId);
  if (r.ids.length)
    await db
      .insertInto("report_measurements")
      .values(r.ids.map((m) => ({ organization_id: organizationId, report_id: id, measurement_id: m.id })))
      .execute();
  await runReportGeneration(db, id);
  return id;
}

/**
 * The newest live measurements outside any inventory (the add rules skip those), sorted as a
 * seller would before reporting them: a measurement without an assortment gets its species'
 * (the demo's spruce sawlog A, pine pulpwood, birch firewood), and spruce logs over 26 cm the
 * B sawlog of their own, so the reports have priced lines and pass the add rule.
 */
async function sortedMeasurements(db: DB, organizationId: number, offset: number, limit: number) {
  const rows = await db
    .selectFrom("measurements")
    .select(["id", "assortment_id", "wood_type_id"])
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where("inventory_id", "is", null)
    .orderBy("taken_at", "desc")
    .orderBy("id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
  const assortments = await db
    .selectFrom("assortments")
    .select(["id", "name", "wood_type_id"])
    .where("organization_id", "=", organizationId)
    .orderBy("id")
    .execute();
  const bySpecies = new Map<number, number>();
  for (const a of assortments)
    if (a.wood_type_id !== null && !bySpecies.has(a.wood_type_id)) bySpecies.set(a.wood_type_id, a.id);
  const spruceB = assortments.find((a) => a.name.startsWith("Spruce sawlog B"))?.id;
  for (const m of rows) {
    if (m.assortment_id !== null || m.wood_type_id === null) continue;
    const assortment = bySpecies.get(m.wood_type_id);
    if (!assortment) continue;
    await db.updateTable("measurements").set({ assortment_id: assortment }).where("id", "=", m.id).execute();
    if (spruceB && m.wood_type_id === 2)
      await db
        .updateTable("logs")
        .set({ assortment_id: spruceB })
        .where("measurement_id", "=", m.id)
        .where("d", ">", 26)
        .where("assortment_id", "is", null)
        .where("cull_id", "is", null)
        .execute();
  }
  return rows.filter((m) => m.assortment_id !== null || (m.wood_type_id !== null && bySpecies.has(m.wood_type_id)));
}

async function seedOwnReports(db: DB, organizationId: number, log: (s: string) => void) {
  const existing = await db
    .selectFrom("reports")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("recipient_organization_id", "is", null)
    .executeTakeFirst();
  if (existing) return 0;
  const measurements = await sortedMeasurements(db, organizationId, 0, 8);
  const reports = [
    { name: "Sawlogs for Valga sawmill", volume_formula: "cylinder", confirmed: true, ids: measurements.slice(0, 4) },
    { name: "Export logs, JAS", volume_formula: "jas", confirmed: false, ids: measurements.slice(4, 8) },
  ];
  for (const r of reports) {
    const id = await insertReport(db, organizationId, r);
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

/**
 * The report sent to the partner organisation (registration code DEMO-0002): three more of the
 * demo's measurements, unconfirmed and unseen. The partner gets the reports feature and an admin
 * of its own, PARTNER_ADMIN, who sees it in /reports (the badge shows 1), opens and confirms it.
 */
async function seedPartnerReport(db: DB, organizationId: number, log: (s: string) => void) {
  const partner = await db
    .selectFrom("organizations")
    .select("id")
    .where("registration_code", "=", PARTNER_CODE)
    .where("id", "!=", organizationId)
    .executeTakeFirst();
  if (!partner) return 0;
  await sql`UPDATE organizations SET features = JSON_ARRAY_APPEND(features, '$', 'reports')
    WHERE id = ${partner.id} AND NOT JSON_CONTAINS(features, '"reports"')`.execute(db);
  const user = await db.selectFrom("users").select("id").where("email", "=", PARTNER_ADMIN.email).executeTakeFirst();
  if (!user) {
    const now = new Date();
    const inserted = await db
      .insertInto("users")
      .values({
        email: PARTNER_ADMIN.email,
        name: PARTNER_ADMIN.name,
        password_hash: await hashPassword(PARTNER_ADMIN.password),
        verified_at: now,
        recent_organization_id: partner.id,
        devices_updated_at: now,
      })
      .executeTakeFirstOrThrow();
    const userId = Number(inserted.insertId);
    await db
      .insertInto("roles")
      .values({
        user_id: userId,
        organization_id: partner.id,
        name: "admin",
        assignable_type: "Organization",
        assignable_id: partner.id,
      })
      .execute();
  }
  const existing = await db
    .selectFrom("reports")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("recipient_organization_id", "=", partner.id)
    .executeTakeFirst();
  if (existing) return 0;
  const measurements = await sortedMeasurements(db, organizationId, 8, 3);
  await insertReport(db, organizationId, {
    name: PARTNER_REPORT,
    volume_formula: "cylinder",
    recipient_organization_id: partner.id,
    ids: measurements,
  });
  log(`reports: a report sent to the partner organisation (sign in as ${PARTNER_ADMIN.email} to confirm it)`);
  return 1;
}
