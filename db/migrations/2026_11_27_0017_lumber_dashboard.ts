import { type Kysely } from "kysely";

// The lumber dashboard aggregates an organisation's lumber measurements per storage (plank
// count and volume, both kept on the row) over a date window, as the timber dashboard does.
// This covering index answers that aggregate from the index alone; measurement_type_id and
// lumber_product_id are in it because they are the usual extra filters. The deleted list reads
// it too (deleted_at IS NOT NULL).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("lumber_measurements_dashboard_idx")
    .on("lumber_measurements")
    .columns([
      "organization_id",
      "deleted_at",
      "taken_at",
      "measurement_type_id",
      "lumber_product_id",
      "storage_id",
      "plank_count",
      "volume",
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("lumber_measurements_dashboard_idx").on("lumber_measurements").execute();
}
