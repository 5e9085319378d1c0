import { createPublicLink } from "~/models/public-link.server";
import type { DB } from "~/utils/db.server";

// The demo organisation's mixed stack report: a delivery of 18.4 t with the two newest
// measurements that have logs attached close up and the next one far away, shared by its
// public link, so /reports/mixed-stack shows a report with figures at once. Run again, it adds
// nothing.

export const DEMO_MIXED_STACK_NAME = "Delivery to Pärnu port";

export async function seedMixedStack(db: DB, organizationId: number, opts: { log?: (s: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  const existing = await db
    .selectFrom("mixed_stack_reports")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (existing) return 0;
  const admin = await db
    .selectFrom("roles")
    .innerJoin("users", "users.id", "roles.user_id")
    .select(["users.id", "users.time_zone"])
    .where("roles.organization_id", "=", organizationId)
    .where("roles.name", "=", "admin")
    .orderBy("users.id")
    .executeTakeFirst();
  const measurements = await db
    .selectFrom("measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where("logs_count", ">", 0)
    .orderBy("taken_at", "desc")
    .orderBy("id", "desc")
    .limit(3)
    .execute();
  const report = await db
    .insertInto("mixed_stack_reports")
    .values({
      organization_id: organizationId,
      name: DEMO_MIXED_STACK_NAME,
      total_delivery_tons: 18.4,
      created_by: admin?.id ?? null,
    })
    .executeTakeFirstOrThrow();
  const id = Number(report.insertId);
  if (measurements.length) {
    await db
      .insertInto("mixed_stack_report_measurements")
      .values(
        measurements.map((m, i) => ({
          organization_id: organizationId,
          mixed_stack_report_id: id,
          measurement_id: m.id,
          category: i < 2 || measurements.length === 1 ? ("close_up" as const) : ("far_away" as const),
        })),
      )
      .execute();
  }
  await createPublicLink(
    db,
    { organizationId, userId: admin?.id ?? null, timeZone: admin?.time_zone ?? "Europe/Tallinn" },
    "mixed_stack_report",
    id,
  );
  log(`mixed stack report: ${DEMO_MIXED_STACK_NAME} with ${measurements.length} measurements`);
  return 1;
}
