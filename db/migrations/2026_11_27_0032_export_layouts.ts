import { sql, type Kysely } from "kysely";

// Configurable export layouts (docs/decisions/026-exports-and-labels.md, "Configurable export
// layouts"): per organisation and target (a column catalogue, app/services/exports/layouts), the
// chosen columns in order, each with an optional header of its own.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("export_layouts")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    // dashboard | bill_of_lading (LAYOUT_TARGETS)
    .addColumn("target", "varchar(32)", (c) => c.notNull())
    // [{ key, header | null }], validated against the target's catalogue before it is written.
    .addColumn("columns", "json", (c) => c.notNull())
    .addColumn("updated_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("updated_at", "datetime(3)", (c) =>
      c
        .notNull()
        .defaultTo(sql`CURRENT_TIMESTAMP(3)`)
        .modifyEnd(sql`ON UPDATE CURRENT_TIMESTAMP(3)`),
    )
    .addUniqueConstraint("export_layouts_org_target_unique", ["organization_id", "target"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("export_layouts").execute();
}
