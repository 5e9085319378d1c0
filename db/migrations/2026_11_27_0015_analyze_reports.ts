import { sql, type Kysely } from "kysely";

// Duplicate analysis (docs/decisions/016-duplicate-analysis.md): an analyze report is one run over
// a period, its cases are the groups of measurements found to be the same pile. The report's
// status is what the sweep looks at (the job lives in PostgreSQL, the row here).
//
// Measurements get the two photo fingerprints the analysis compares: the SHA-256 of the original
// file (the same upload twice) and a 64-bit difference hash of the thumbnail (the same photo
// re-encoded or resized). The analysis fills them when missing, so old rows need no backfill.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("analyze_reports")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("type_key", "varchar(64)", (c) => c.notNull().defaultTo("duplicate_storage_measurements"))
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("created"))
    .addColumn("status_detail", "varchar(500)")
    .addColumn("period_from", "char(10)", (c) => c.notNull())
    .addColumn("period_to", "char(10)", (c) => c.notNull())
    .addColumn("storage_ids", "json", (c) => c.notNull())
    .addColumn("measurement_types", "json", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("enqueued_at", "datetime(3)")
    .addColumn("started_at", "datetime(3)")
    .addColumn("completed_at", "datetime(3)")
    .addColumn("measurements_compared", "integer", (c) => c.unsigned())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("analyze_reports_org_idx")
    .on("analyze_reports")
    .columns(["organization_id", "created_at"])
    .execute();
  await db.schema.createIndex("analyze_reports_status_idx").on("analyze_reports").columns(["status"]).execute();

  await db.schema
    .createTable("analyze_report_cases")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("analyze_report_id", "bigint", (c) =>
      c.unsigned().notNull().references("analyze_reports.id").onDelete("cascade"),
    )
    .addColumn("reasons", "json", (c) => c.notNull())
    .addColumn("measurement_ids", "json", (c) => c.notNull())
    .addColumn("score", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("resolved_at", "datetime(3)")
    .addColumn("resolved_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .execute();
  await db.schema
    .createIndex("analyze_report_cases_report_idx")
    .on("analyze_report_cases")
    .columns(["analyze_report_id", "id"])
    .execute();

  await db.schema
    .alterTable("measurements")
    .addColumn("photo_sha256", "char(64)")
    .addColumn("photo_dhash", "char(16)")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurements").dropColumn("photo_sha256").dropColumn("photo_dhash").execute();
  await db.schema.dropTable("analyze_report_cases").execute();
  await db.schema.dropTable("analyze_reports").execute();
}
