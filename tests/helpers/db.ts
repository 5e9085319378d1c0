import { sql } from "kysely";
import pg from "pg";
import { inject } from "vitest";
import { db } from "~/utils/db.server";

export const databases = () => inject("databases");

// Product tables emptied between tests; built-in lookups and migrations stay.
const TABLES = [
  "inventories",
  "analyze_report_cases",
  "analyze_reports",
  "mixed_stack_report_measurements",
  "mixed_stack_reports",
  "public_links",
  "exports",
  "local_checkouts",
  "billing_events",
  "picture_credit_events",
  "invoices",
  "subscription_items",
  "billing_accounts",
  "diameter_profile_assortments",
  "diameter_profiles",
  "truck_checkpoints",
  "truck_routes",
  "truck_loads",
  "truck_measurements",
  "trucks",
  "planks",
  "lumber_measurements",
  "lumber_products",
  "user_tokens",
  "password_history",
  "custom_field_values",
  "custom_fields",
  "device_invitations",
  "device_storages",
  "devices",
  "mail_outbox",
  "measurement_references",
  "logs",
  "measurements",
  "assortments",
  "culls",
  "sessions",
  "roles",
  "storages",
  "storage_groups",
  "users",
  "organizations",
] as const;

// Counters every request to a public page adds to (a refused one too): emptied between tests,
// never compared by "nothing changed".
const COUNTER_TABLES = ["public_rate_limits"] as const;

export async function cleanDatabase() {
  await sql`SET FOREIGN_KEY_CHECKS = 0`.execute(db());
  try {
    for (const t of [...TABLES, ...COUNTER_TABLES]) await sql`DELETE FROM ${sql.table(t)}`.execute(db());
    await sql`DELETE FROM wood_types WHERE organization_id IS NOT NULL`.execute(db());
    await sql`DELETE FROM wood_qualities WHERE organization_id IS NOT NULL`.execute(db());
  } finally {
    await sql`SET FOREIGN_KEY_CHECKS = 1`.execute(db());
  }
  const client = new pg.Client({ connectionString: databases().jobsUrl });
  await client.connect();
  try {
    await client.query("DELETE FROM graphile_worker._private_jobs");
  } finally {
    await client.end();
  }
}

/** Row counts of every product table: "nothing changed" compares two of these. */
export async function snapshotCounts() {
  const counts: Record<string, number> = {};
  for (const t of TABLES) {
    const row = await sql<{ c: number }>`SELECT COUNT(*) AS c FROM ${sql.table(t)}`.execute(db());
    counts[t] = Number(row.rows[0].c);
  }
  return counts;
}

/** Content checksums of every product table: equal before and after means nothing changed. */
export async function snapshotTables() {
  const result = await sql<{
    Table: string;
    Checksum: number | null;
  }>`CHECKSUM TABLE ${sql.raw(TABLES.join(", "))}`.execute(db());
  return Object.fromEntries(result.rows.map((r) => [r.Table.split(".").pop(), r.Checksum]));
}
