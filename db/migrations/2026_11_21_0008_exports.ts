import { type Kysely, sql } from "kysely";

// Excel and PDF exports: one row per requested file, made by a job (status 0 in progress,
// 1 done, 2 partially done, 3 failed), listed on /exports and downloaded through the app.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("exports")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    // excel or pdf: the two families share the engine, the list and the statuses.
    .addColumn("kind", "varchar(8)", (c) => c.notNull())
    .addColumn("report_type", "varchar(64)", (c) => c.notNull())
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    // The selection as requested (ids or dashboard filters), replayed by the job.
    .addColumn("params", "json", (c) => c.notNull())
    .addColumn("status", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    // What was left out (status 2) or why it failed (status 3).
    .addColumn("status_detail", "varchar(1000)")
    .addColumn("progress", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("row_count", "integer", (c) => c.unsigned())
    .addColumn("file_key", "varchar(255)")
    .addColumn("file_size", "bigint", (c) => c.unsigned())
    .addColumn("attempts", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    // Set when enqueued and refreshed while the job writes: the sweep re-enqueues rows whose
    // heartbeat stopped (a killed worker), never one that is still being written.
    .addColumn("heartbeat_at", "datetime(3)")
    .addColumn("finished_at", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("exports_org_created_idx")
    .on("exports")
    .columns(["organization_id", "kind", "created_at"])
    .execute();
  await db.schema.createIndex("exports_status_idx").on("exports").columns(["status", "heartbeat_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("exports").ifExists().execute();
}
