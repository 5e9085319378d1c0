import { type Kysely, sql } from "kysely";

// Devices (the mobile app, paired by the organisation's activation code, authenticated by a
// device token) and custom fields. Shared by the accounts screens and the measuring API.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("organizations")
    // The code a measurer types into the mobile app to pair it with this organisation.
    .addColumn("device_activation_code", "varchar(16)")
    .execute();
  await db.schema
    .createIndex("organizations_activation_idx")
    .on("organizations")
    .column("device_activation_code")
    .unique()
    .execute();

  await db.schema
    .createTable("devices")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("affiliation", "varchar(255)")
    .addColumn("hw_id", "varchar(255)", (c) => c.notNull())
    // SHA-256 of the device token the app received when pairing.
    .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
    .addColumn("all_storages", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("default_storage_id", "bigint", (c) => c.unsigned())
    .addColumn("locked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("last_used", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("deleted_at", "datetime(3)")
    .execute();
  await db.schema.createIndex("devices_org_idx").on("devices").columns(["organization_id", "deleted_at"]).execute();

  await db.schema
    .createTable("device_storages")
    .addColumn("device_id", "bigint", (c) => c.unsigned().notNull().references("devices.id").onDelete("cascade"))
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("device_storages_pk", ["device_id", "storage_id"])
    .execute();

  await db.schema
    .createTable("device_invitations")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("sent_to", "varchar(255)", (c) => c.notNull())
    .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
    .addColumn("sent_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("accepted_at", "datetime(3)")
    .execute();

  await db.schema
    .createTable("custom_fields")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("key", "varchar(64)", (c) => c.notNull())
    // measurement, truck_measurement, container_measurement, lumber_measurement, storage
    .addColumn("source_key", "varchar(32)", (c) => c.notNull())
    // datetime, integer, boolean, string, text, decimal, date
    .addColumn("data_type", "varchar(16)", (c) => c.notNull())
    .addColumn("searchable", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("required", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("custom_fields_key_idx")
    .on("custom_fields")
    .columns(["organization_id", "source_key", "key"])
    .unique()
    .execute();

  await db.schema
    .createTable("custom_field_values")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("custom_field_id", "bigint", (c) =>
      c.unsigned().notNull().references("custom_fields.id").onDelete("cascade"),
    )
    .addColumn("value", "varchar(255)", (c) => c.notNull())
    .addColumn("rank", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex("custom_field_values_field_idx")
    .on("custom_field_values")
    .column("custom_field_id")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["custom_field_values", "custom_fields", "device_invitations", "device_storages", "devices"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.dropIndex("organizations_activation_idx").on("organizations").execute();
  await db.schema.alterTable("organizations").dropColumn("device_activation_code").execute();
}
