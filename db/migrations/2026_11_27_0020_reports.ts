import { sql, type Kysely } from "kysely";

// Reports (docs/decisions/021-reports.md): measurements grouped for a buyer, tallied by a job
// (logs by diameter, assortment and cull, with prices) in the report's formula and unit. A report
// may be sent to another organisation (recipient_organization_id), whose admins see, open and
// confirm it. `details` holds the tallies the job stored (JSON); nothing else is computed later.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("reports")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("recipient_organization_id", "bigint", (c) =>
      c.unsigned().references("organizations.id").onDelete("set null"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("volume_formula", "varchar(32)", (c) => c.notNull())
    .addColumn("volume_unit", "varchar(16)", (c) => c.notNull())
    // yyyy-MM-dd, the calendar day the report is for.
    .addColumn("reported_at", "char(10)", (c) => c.notNull())
    .addColumn("confirmed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("confirmed_at", "datetime(3)")
    .addColumn("confirmed_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("seen_at", "datetime(3)")
    .addColumn("generating_in_progress", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("generation_enqueued_at", "datetime(3)")
    .addColumn("generation_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("generated_at", "datetime(3)")
    .addColumn("generation_error", "varchar(500)")
    .addColumn("last_added_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_not_added_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("details", "json")
    .addColumn("created_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("reports_org_idx").on("reports").columns(["organization_id", "created_at"]).execute();
  await db.schema
    .createIndex("reports_recipient_idx")
    .on("reports")
    .columns(["recipient_organization_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("reports_generating_idx")
    .on("reports")
    .columns(["generating_in_progress", "generation_enqueued_at"])
    .execute();

  await db.schema
    .createTable("report_measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("report_id", "bigint", (c) => c.unsigned().notNull().references("reports.id").onDelete("cascade"))
    .addColumn("measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("measurements.id").onDelete("cascade"),
    )
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("report_measurements_unique_idx")
    .on("report_measurements")
    .columns(["report_id", "measurement_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("report_measurements_measurement_idx")
    .on("report_measurements")
    .column("measurement_id")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("report_measurements").execute();
  await db.schema.dropTable("reports").execute();
}
