import { type Kysely, sql } from "kysely";

// Every measurement kind's table carries the shared photo and upload columns (the photo
// pipeline and the device upload envelope work on any kind: see
// docs/decisions/008-export-types-and-measurement-kinds.md). Lumber measurements get the
// renditions and the device client id timber has. Photos already stored are marked pending as
// if their job had been lost, so the sweep makes their renditions once a worker runs.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("lumber_measurements")
    // The uploading device's own id for the measurement: a retry with the same one creates nothing.
    .addColumn("client_id", "varchar(64)")
    .addColumn("photo_optimized_key", "varchar(255)")
    .addColumn("photo_popup_key", "varchar(255)")
    .addColumn("photo_thumbnail_key", "varchar(255)")
    // 0 pending, 1 done, 3 failed, as measurements.photo_status.
    .addColumn("photo_status", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("photo_attempts", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("photo_error", "varchar(512)")
    .addColumn("photo_enqueued_at", "datetime(3)")
    .execute();
  await db.schema
    .createIndex("lumber_measurements_client_idx")
    .on("lumber_measurements")
    .columns(["organization_id", "client_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("lumber_measurements_photo_status_idx")
    .on("lumber_measurements")
    .columns(["photo_status", "photo_enqueued_at"])
    .execute();
  await db.updateTable("lumber_measurements").set({ photo_status: 1 }).where("photo_key", "is", null).execute();
  await db
    .updateTable("lumber_measurements")
    .set({ photo_enqueued_at: new Date(0) })
    .where("photo_key", "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("lumber_measurements_photo_status_idx").on("lumber_measurements").execute();
  await db.schema.dropIndex("lumber_measurements_client_idx").on("lumber_measurements").execute();
  await db.schema
    .alterTable("lumber_measurements")
    .dropColumn("client_id")
    .dropColumn("photo_optimized_key")
    .dropColumn("photo_popup_key")
    .dropColumn("photo_thumbnail_key")
    .dropColumn("photo_status")
    .dropColumn("photo_attempts")
    .dropColumn("photo_error")
    .dropColumn("photo_enqueued_at")
    .execute();
}
