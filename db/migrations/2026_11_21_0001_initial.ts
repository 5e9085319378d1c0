import { type Kysely, sql } from "kysely";

// The first schema: tenancy (organisations, users, roles, sessions), storages, timber
// measurements with logs and references, the lookups, the mail outbox.
// Every product row carries organization_id; built-in lookups have organization_id NULL.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("organizations")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("registration_code", "varchar(64)")
    .addColumn("country", "varchar(2)")
    .addColumn("city", "varchar(255)")
    .addColumn("address", "varchar(255)")
    .addColumn("postal_code", "varchar(32)")
    .addColumn("vat_code", "varchar(32)")
    .addColumn("invoice_email", "varchar(255)")
    .addColumn("default_storage_id", "bigint", (c) => c.unsigned())
    .addColumn("currency", "varchar(3)", (c) => c.notNull().defaultTo("EUR"))
    .addColumn("contact_person", "varchar(255)")
    .addColumn("phone", "varchar(64)")
    .addColumn("token", "varchar(64)")
    // Plan feature flags (e.g. "reports", "inventories"): JSON array of strings.
    .addColumn("features", "json", (c) => c.notNull().defaultTo(sql`('[]')`))
    .addColumn("cmpc_enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("vmu_enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("email", "varchar(255)", (c) => c.notNull().unique())
    .addColumn("name", "varchar(255)")
    .addColumn("password_hash", "varchar(255)")
    .addColumn("locale", "varchar(8)", (c) => c.notNull().defaultTo("en"))
    .addColumn("time_zone", "varchar(64)", (c) => c.notNull().defaultTo("Europe/Tallinn"))
    .addColumn("volume_unit", "varchar(8)", (c) => c.notNull().defaultTo("m^3"))
    .addColumn("length_unit", "varchar(8)", (c) => c.notNull().defaultTo("m"))
    .addColumn("reference_unit", "varchar(8)", (c) => c.notNull().defaultTo("cm"))
    .addColumn("weight_unit", "varchar(8)", (c) => c.notNull().defaultTo("kg"))
    .addColumn("density_unit", "varchar(8)", (c) => c.notNull().defaultTo("m^3/t"))
    .addColumn("diameter_unit", "varchar(8)", (c) => c.notNull().defaultTo("cm"))
    .addColumn("lumber_plank_unit", "varchar(8)", (c) => c.notNull().defaultTo("mm"))
    .addColumn("rounding_precision", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(2))
    .addColumn("recent_measurement_mode", "varchar(16)", (c) => c.notNull().defaultTo("timber"))
    .addColumn("recent_organization_id", "bigint", (c) => c.unsigned())
    .addColumn("password_expiry", "datetime(3)")
    .addColumn("otp_secret", "varchar(255)")
    .addColumn("otp_enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("verified_at", "datetime(3)")
    .addColumn("verification_sent_at", "datetime(3)")
    .addColumn("failed_login_count", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("locked_until", "datetime(3)")
    .addColumn("devices_updated_at", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();

  await db.schema
    .createTable("storage_groups")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();

  await db.schema
    .createTable("storages")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_group_id", "bigint", (c) => c.unsigned().references("storage_groups.id").onDelete("set null"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("storage_state_id", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(2))
    .addColumn("token", "varchar(64)")
    .addColumn("last_inventory_confirmed_at", "datetime(3)")
    .addColumn("deleted_at", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("storages_org_idx").on("storages").columns(["organization_id", "deleted_at"]).execute();
  await db.schema.createIndex("storages_token_idx").on("storages").column("token").unique().execute();

  await db.schema
    .createTable("roles")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("user_id", "bigint", (c) => c.unsigned().notNull().references("users.id").onDelete("cascade"))
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(16)", (c) => c.notNull())
    .addColumn("assignable_type", "varchar(16)", (c) => c.notNull())
    .addColumn("assignable_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("roles_unique_idx")
    .on("roles")
    .columns(["user_id", "assignable_type", "assignable_id", "name"])
    .unique()
    .execute();
  await db.schema.createIndex("roles_org_idx").on("roles").columns(["organization_id", "user_id"]).execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    // SHA-256 of the random token; the token itself is only ever in the cookie or the client.
    .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
    .addColumn("user_id", "bigint", (c) => c.unsigned().notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "varchar(8)", (c) => c.notNull())
    .addColumn("ip", "varchar(64)")
    .addColumn("user_agent", "varchar(512)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("expires_at", "datetime(3)", (c) => c.notNull())
    .addColumn("revoked_at", "datetime(3)")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  for (const table of ["wood_types", "wood_qualities"]) {
    await db.schema
      .createTable(table)
      .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
      .addColumn("organization_id", "bigint", (c) => c.unsigned().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "varchar(255)", (c) => c.notNull())
      .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
      .execute();
    await db.schema.createIndex(`${table}_org_idx`).on(table).column("organization_id").execute();
  }
  // Built-in ids are fixed (wood types 1-10 and 1001-1004); an organisation's own rows start above them.
  await sql`ALTER TABLE wood_types AUTO_INCREMENT = 10000`.execute(db);
  await sql`ALTER TABLE wood_qualities AUTO_INCREMENT = 10000`.execute(db);

  await db.schema
    .createTable("volume_formulas")
    .addColumn("key", "varchar(32)", (c) => c.primaryKey())
    .addColumn("unit", "varchar(16)", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("culls")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().references("organizations.id").onDelete("cascade"))
    .addColumn("reason", "varchar(255)", (c) => c.notNull())
    .addColumn("min", "double precision")
    .addColumn("max", "double precision")
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("culls_org_idx").on("culls").column("organization_id").execute();

  // An assortment is the spec's "wood characteristic": a sellable product with a diameter range and a price.
  await db.schema
    .createTable("assortments")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().references("organizations.id").onDelete("cascade"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("wood_type_id", "bigint", (c) => c.unsigned().references("wood_types.id"))
    .addColumn("wood_quality_id", "bigint", (c) => c.unsigned().references("wood_qualities.id"))
    .addColumn("log_length", "double precision")
    .addColumn("weight_density", "double precision")
    .addColumn("min_diameter", "double precision")
    .addColumn("max_diameter", "double precision")
    .addColumn("diameter_percentage", "double precision")
    .addColumn("price_cents", "bigint")
    .addColumn("price_per_log_cents", "bigint")
    .addColumn("volume_unit", "varchar(8)", (c) => c.notNull().defaultTo("m^3"))
    .addColumn("custom_fields", "json", (c) => c.notNull().defaultTo(sql`('{}')`))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("assortments_org_idx").on("assortments").column("organization_id").execute();

  await db.schema
    .createTable("measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id"))
    .addColumn("device_id", "bigint", (c) => c.unsigned())
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    // The uploading device's own id for the measurement: a retry with the same one creates nothing.
    .addColumn("client_id", "varchar(64)")
    .addColumn("type", "varchar(16)", (c) => c.notNull().defaultTo("diameter"))
    .addColumn("photo_file_name", "varchar(255)")
    .addColumn("photo_key", "varchar(255)")
    .addColumn("photo_optimized_key", "varchar(255)")
    .addColumn("photo_popup_key", "varchar(255)")
    .addColumn("photo_thumbnail_key", "varchar(255)")
    .addColumn("photo_width", "integer", (c) => c.unsigned())
    .addColumn("photo_height", "integer", (c) => c.unsigned())
    // 0 pending, 1 done, 3 failed (the export status numbers of the spec, reused for every job-backed row).
    .addColumn("photo_status", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("photo_attempts", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("photo_error", "varchar(512)")
    .addColumn("photo_enqueued_at", "datetime(3)")
    .addColumn("taken_at", "datetime(3)", (c) => c.notNull())
    .addColumn("measured_at", "datetime(3)")
    .addColumn("measurement_type_id", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("log_length", "double precision")
    .addColumn("logs_count", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("volume", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("initial_volume", "double precision")
    .addColumn("coefficient", "double precision")
    .addColumn("wood_type_id", "bigint", (c) => c.unsigned())
    .addColumn("wood_quality_id", "bigint", (c) => c.unsigned())
    .addColumn("assortment_id", "bigint", (c) => c.unsigned())
    .addColumn("volume_formula", "varchar(32)", (c) => c.notNull().defaultTo("cylinder"))
    .addColumn("inventory_id", "bigint", (c) => c.unsigned())
    .addColumn("comment", "text")
    .addColumn("metrology", "json")
    .addColumn("shipment_number", "varchar(64)")
    .addColumn("load_lines", "json")
    .addColumn("measurement_area", "json")
    .addColumn("heights", "json")
    .addColumn("custom_fields", "json", (c) => c.notNull().defaultTo(sql`('{}')`))
    .addColumn("poor_detection", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("weight", "double precision")
    .addColumn("weight_density", "double precision")
    .addColumn("token", "varchar(64)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("deleted_at", "datetime(3)")
    .execute();
  await db.schema
    .createIndex("measurements_org_storage_taken_idx")
    .on("measurements")
    .columns(["organization_id", "storage_id", "deleted_at", "taken_at"])
    .execute();
  await db.schema
    .createIndex("measurements_org_taken_idx")
    .on("measurements")
    .columns(["organization_id", "taken_at"])
    .execute();
  await db.schema
    .createIndex("measurements_client_idx")
    .on("measurements")
    .columns(["organization_id", "client_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("measurements_photo_status_idx")
    .on("measurements")
    .columns(["photo_status", "photo_enqueued_at"])
    .execute();

  await db.schema
    .createTable("logs")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("measurements.id").onDelete("cascade"),
    )
    .addColumn("x", "double precision", (c) => c.notNull())
    .addColumn("y", "double precision", (c) => c.notNull())
    .addColumn("r", "double precision", (c) => c.notNull())
    .addColumn("d", "double precision", (c) => c.notNull())
    .addColumn("v", "double precision", (c) => c.notNull())
    .addColumn("cull_id", "bigint", (c) => c.unsigned())
    .addColumn("assortment_id", "bigint", (c) => c.unsigned())
    .addColumn("is_out_of_range", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("modified_at", "datetime(3)")
    .execute();
  await db.schema.createIndex("logs_measurement_idx").on("logs").columns(["measurement_id", "is_deleted"]).execute();

  await db.schema
    .createTable("measurement_references")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("measurements.id").onDelete("cascade"),
    )
    .addColumn("x1", "double precision", (c) => c.notNull())
    .addColumn("y1", "double precision", (c) => c.notNull())
    .addColumn("x2", "double precision", (c) => c.notNull())
    .addColumn("y2", "double precision", (c) => c.notNull())
    // metres
    .addColumn("size", "double precision", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("references_measurement_idx")
    .on("measurement_references")
    .column("measurement_id")
    .execute();

  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("to_address", "varchar(255)", (c) => c.notNull())
    .addColumn("subject", "varchar(255)", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", sql`mediumtext`)
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("sent_at", "datetime(3)")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "mail_outbox",
    "measurement_references",
    "logs",
    "measurements",
    "assortments",
    "culls",
    "volume_formulas",
    "wood_qualities",
    "wood_types",
    "sessions",
    "roles",
    "storages",
    "storage_groups",
    "users",
    "organizations",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
