import { type Kysely } from "kysely";

// The timber dashboard aggregates a three-month window of an organisation's measurements per
// storage (log count and volume, both kept on the measurement row). This covering index lets
// MySQL answer that aggregate from the index alone, without touching the 3M-row logs table or
// the wide measurement rows; measurement_type_id is in it because the type is the usual extra
// filter (without it MariaDB reads every row: 0.33 s instead of 0.045 s at 12k measurements). The deleted list reads the same index with deleted_at IS NOT NULL.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("measurements_dashboard_idx")
    .on("measurements")
    .columns(["organization_id", "deleted_at", "taken_at", "measurement_type_id", "storage_id", "logs_count", "volume"])
    .execute();
  await db.schema
    .createIndex("measurements_org_created_idx")
    .on("measurements")
    .columns(["organization_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("measurements_org_created_idx").on("measurements").execute();
  await db.schema.dropIndex("measurements_dashboard_idx").on("measurements").execute();
}
