import { sql, type Kysely } from "kysely";

// Mixed stack reports (docs/decisions/020-mixed-stack-reports.md): a delivery of mixed logs sold
// by weight, summarised for the buyer from close-up photos (log ends, diameters) and far-away
// photos (the whole stack). A report keeps its name and delivered tons; its measurements are
// attached in one of the two categories. Its public link is a row of public_links (kind
// "mixed_stack_report"), like every other public page.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("mixed_stack_reports")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("total_delivery_tons", sql`decimal(12,2)`)
    .addColumn("created_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("mixed_stack_reports_org_idx")
    .on("mixed_stack_reports")
    .columns(["organization_id", "updated_at"])
    .execute();

  await db.schema
    .createTable("mixed_stack_report_measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("mixed_stack_report_id", "bigint", (c) =>
      c.unsigned().notNull().references("mixed_stack_reports.id").onDelete("cascade"),
    )
    .addColumn("measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("measurements.id").onDelete("cascade"),
    )
    // close_up | far_away
    .addColumn("category", "varchar(16)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  // A measurement is in a report once (attaching it again moves it to the new category).
  await db.schema
    .createIndex("mixed_stack_report_measurements_unique_idx")
    .on("mixed_stack_report_measurements")
    .columns(["mixed_stack_report_id", "measurement_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("mixed_stack_report_measurements_measurement_idx")
    .on("mixed_stack_report_measurements")
    .column("measurement_id")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mixed_stack_report_measurements").execute();
  await db.schema.dropTable("mixed_stack_reports").execute();
}
