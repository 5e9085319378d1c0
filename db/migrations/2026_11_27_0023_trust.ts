import { sql, type Kysely } from "kysely";

// Trust in the numbers (docs/decisions/024-trust.md): an append-only history of every change of a
// measurement of any kind, written in the same transaction as the change, and the original
// photo's SHA-256 for the kinds that did not keep it yet (timber got photo_sha256 in 0015).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("measurement_history")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    // MEASUREMENT_KINDS' key; the measurement is a row of that kind's table (no foreign key:
    // the history outlives nothing, since measurements are only ever soft-deleted).
    .addColumn("kind", "varchar(32)", (c) => c.notNull())
    .addColumn("measurement_id", "bigint", (c) => c.unsigned().notNull())
    // created | edited | moved | deleted | restored | locked
    .addColumn("action", "varchar(32)", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("device_id", "bigint", (c) => c.unsigned().references("devices.id").onDelete("set null"))
    .addColumn("at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("volume_before", "double precision")
    .addColumn("volume_after", "double precision")
    .addColumn("changes", "json", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("measurement_history_measurement_idx")
    .on("measurement_history")
    .columns(["organization_id", "kind", "measurement_id", "id"])
    .execute();

  for (const table of ["lumber_measurements", "truck_measurements"])
    await db.schema.alterTable(table).addColumn("photo_sha256", "char(64)").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["lumber_measurements", "truck_measurements"])
    await db.schema.alterTable(table).dropColumn("photo_sha256").execute();
  await db.schema.dropTable("measurement_history").execute();
}
