import { type Kysely, sql } from "kysely";

// Shipments (docs/decisions/023-shipments.md): a pulp mill's deliveries, each by its number
// (unique per organisation, made on a device's first use), gathering the truck measurements
// (load volumes) and truck-diameter measurements (log ends counted and measured on the truck)
// of one delivery. Truck-diameter measurements are a measurement kind (decision 008) with the
// shared kind columns, their log circles in truck_diameter_logs and their reference lines as
// JSON. Truck measurements get their shipment and their reference lines (the cmpc editor).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("shipments")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("number", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("shipments_org_number_idx")
    .on("shipments")
    .columns(["organization_id", "number"])
    .unique()
    .execute();
  await db.schema
    .createIndex("shipments_org_created_idx")
    .on("shipments")
    .columns(["organization_id", "created_at"])
    .execute();

  await db.schema
    .alterTable("truck_measurements")
    // No foreign key (an added column's inline one is ignored by MySQL): the model keeps it.
    .addColumn("shipment_id", "bigint", (c) => c.unsigned())
    .execute();
  await db.schema
    .alterTable("truck_measurements")
    // Reference lines drawn on the photo [{x1, y1, x2, y2, size (m)}]; null before the first.
    .addColumn("reference_lines", "json")
    .execute();
  await db.schema
    .createIndex("truck_measurements_org_shipment_idx")
    .on("truck_measurements")
    .columns(["organization_id", "shipment_id", "deleted_at"])
    .execute();

  await db.schema
    .createTable("truck_diameter_measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id"))
    .addColumn("shipment_id", "bigint", (c) => c.unsigned().references("shipments.id").onDelete("set null"))
    .addColumn("device_id", "bigint", (c) => c.unsigned())
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("client_id", "varchar(64)")
    .addColumn("shipment_number", "varchar(64)")
    .addColumn("measurement_type_id", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("wood_type_id", "bigint", (c) => c.unsigned())
    // metres
    .addColumn("log_length", "double precision", (c) => c.notNull())
    .addColumn("volume_formula", "varchar(32)", (c) => c.notNull().defaultTo("cylinder"))
    .addColumn("trailer_license_plate", "varchar(32)")
    .addColumn("load_bed_name", "varchar(64)")
    // The detector (model) that found the log ends on the device.
    .addColumn("detector", "varchar(64)")
    .addColumn("reference_lines", "json")
    .addColumn("logs_count", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    // m³, from the logs by the formula and log length (app/domain/shipment.ts).
    .addColumn("volume", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("taken_at", "datetime(3)", (c) => c.notNull())
    .addColumn("measured_at", "datetime(3)")
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("photo_file_name", "varchar(255)")
    .addColumn("photo_key", "varchar(255)")
    .addColumn("photo_sha256", "char(64)")
    .addColumn("photo_optimized_key", "varchar(255)")
    .addColumn("photo_popup_key", "varchar(255)")
    .addColumn("photo_thumbnail_key", "varchar(255)")
    .addColumn("photo_width", "integer", (c) => c.unsigned())
    .addColumn("photo_height", "integer", (c) => c.unsigned())
    .addColumn("photo_status", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(1))
    .addColumn("photo_attempts", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("photo_error", "varchar(512)")
    .addColumn("photo_enqueued_at", "datetime(3)")
    .addColumn("comment", "text")
    .addColumn("custom_fields", "json", (c) => c.notNull().defaultTo(sql`('{}')`))
    .addColumn("inventory_id", "bigint", (c) => c.unsigned())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("deleted_at", "datetime(3)")
    .execute();
  await db.schema
    .createIndex("truck_diameter_org_shipment_idx")
    .on("truck_diameter_measurements")
    .columns(["organization_id", "shipment_id", "deleted_at"])
    .execute();
  await db.schema
    .createIndex("truck_diameter_client_idx")
    .on("truck_diameter_measurements")
    .columns(["organization_id", "client_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("truck_diameter_photo_status_idx")
    .on("truck_diameter_measurements")
    .columns(["photo_status", "photo_enqueued_at"])
    .execute();

  await db.schema
    .createTable("truck_diameter_logs")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("truck_diameter_measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("truck_diameter_measurements.id").onDelete("cascade"),
    )
    // image pixels
    .addColumn("x", "double precision", (c) => c.notNull())
    .addColumn("y", "double precision", (c) => c.notNull())
    .addColumn("r", "double precision", (c) => c.notNull())
    // cm and m³, from the reference scale and the formula
    .addColumn("d", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("v", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("is_deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("modified_at", "datetime(3)")
    .execute();
  await db.schema
    .createIndex("truck_diameter_logs_measurement_idx")
    .on("truck_diameter_logs")
    .columns(["truck_diameter_measurement_id", "is_deleted"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("truck_diameter_logs").ifExists().execute();
  await db.schema.dropTable("truck_diameter_measurements").ifExists().execute();
  await db.schema.dropIndex("truck_measurements_org_shipment_idx").on("truck_measurements").execute();
  await db.schema.alterTable("truck_measurements").dropColumn("reference_lines").execute();
  await db.schema.alterTable("truck_measurements").dropColumn("shipment_id").execute();
  await db.schema.dropTable("shipments").ifExists().execute();
}
