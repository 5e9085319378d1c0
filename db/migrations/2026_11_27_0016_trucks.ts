import { type Kysely, sql } from "kysely";

// Trucks (docs/decisions/017-trucks.md): a truck by its licence plate; truck measurements (the
// third measurement kind, with the shared kind columns of decision 008) whose loads are stacked
// boxes measured from a side photo; the routes a truck's phone drives for a measurement and the
// GPS checkpoints it sends. Volumes are computed by app/domain/truck.ts and kept on the rows so
// the dashboard sums them. A route keeps its last checkpoint's position, so the live map reads
// one row per active route instead of the newest of thousands of checkpoints.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("trucks")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("license_plate", "varchar(32)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("trucks_org_plate_idx")
    .on("trucks")
    .columns(["organization_id", "license_plate"])
    .unique()
    .execute();

  await db.schema
    .createTable("truck_measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id"))
    .addColumn("truck_id", "bigint", (c) => c.unsigned().references("trucks.id").onDelete("set null"))
    .addColumn("device_id", "bigint", (c) => c.unsigned())
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    // The uploading device's own id for the measurement: a retry with the same one creates nothing.
    .addColumn("client_id", "varchar(64)")
    .addColumn("shipment_number", "varchar(64)")
    .addColumn("measurement_type_id", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    // kg
    .addColumn("weight", "double precision")
    // m³/t
    .addColumn("weight_density", "double precision")
    .addColumn("volume_formula", "varchar(32)")
    .addColumn("taken_at", "datetime(3)", (c) => c.notNull())
    .addColumn("measured_at", "datetime(3)")
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("load_count", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    // m³ of the loads' stacked boxes, and solid (stacked x coefficient): app/domain/truck.ts.
    .addColumn("stacked_volume", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("volume", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("photo_file_name", "varchar(255)")
    .addColumn("photo_key", "varchar(255)")
    .addColumn("photo_optimized_key", "varchar(255)")
    .addColumn("photo_popup_key", "varchar(255)")
    .addColumn("photo_thumbnail_key", "varchar(255)")
    .addColumn("photo_width", "integer", (c) => c.unsigned())
    .addColumn("photo_height", "integer", (c) => c.unsigned())
    // 0 pending, 1 done, 3 failed, as measurements.photo_status.
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
    .createIndex("truck_measurements_org_storage_taken_idx")
    .on("truck_measurements")
    .columns(["organization_id", "storage_id", "deleted_at", "taken_at"])
    .execute();
  // The dashboard's grouped totals read this index alone (no row lookups over 100,000 rows).
  await db.schema
    .createIndex("truck_measurements_org_totals_idx")
    .on("truck_measurements")
    .columns(["organization_id", "deleted_at", "storage_id", "load_count", "volume"])
    .execute();
  await db.schema
    .createIndex("truck_measurements_client_idx")
    .on("truck_measurements")
    .columns(["organization_id", "client_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("truck_measurements_photo_status_idx")
    .on("truck_measurements")
    .columns(["photo_status", "photo_enqueued_at"])
    .execute();

  await db.schema
    .createTable("truck_loads")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("truck_measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("truck_measurements.id").onDelete("cascade"),
    )
    .addColumn("load_index", "integer", (c) => c.unsigned().notNull())
    // metres
    .addColumn("height", "double precision", (c) => c.notNull())
    .addColumn("load_width", "double precision", (c) => c.notNull())
    .addColumn("log_length", "double precision", (c) => c.notNull())
    .addColumn("coefficient", "double precision", (c) => c.notNull())
    // m³: stacked box and solid wood.
    .addColumn("stacked_volume", "double precision", (c) => c.notNull())
    .addColumn("volume", "double precision", (c) => c.notNull())
    .addColumn("wood_type_id", "bigint", (c) => c.unsigned())
    .addColumn("wood_quality_id", "bigint", (c) => c.unsigned())
    .addColumn("assortment_id", "bigint", (c) => c.unsigned())
    .addColumn("load_bed_name", "varchar(64)")
    .execute();
  await db.schema
    .createIndex("truck_loads_measurement_idx")
    .on("truck_loads")
    .columns(["truck_measurement_id", "load_index"])
    .execute();

  await db.schema
    .createTable("truck_routes")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("truck_measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("truck_measurements.id").onDelete("cascade"),
    )
    .addColumn("client_id", "varchar(64)")
    .addColumn("started_at", "datetime(3)", (c) => c.notNull())
    .addColumn("finished_at", "datetime(3)")
    // The newest checkpoint by recorded_at (null before the first).
    .addColumn("last_latitude", "double precision")
    .addColumn("last_longitude", "double precision")
    .addColumn("last_recorded_at", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("truck_routes_org_active_idx")
    .on("truck_routes")
    .columns(["organization_id", "finished_at"])
    .execute();
  await db.schema
    .createIndex("truck_routes_measurement_idx")
    .on("truck_routes")
    .columns(["truck_measurement_id", "started_at"])
    .execute();
  await db.schema
    .createIndex("truck_routes_client_idx")
    .on("truck_routes")
    .columns(["organization_id", "client_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("truck_checkpoints")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("truck_route_id", "bigint", (c) =>
      c.unsigned().notNull().references("truck_routes.id").onDelete("cascade"),
    )
    // The phone's own id for the checkpoint: a resent batch adds nothing twice.
    .addColumn("client_id", "varchar(64)", (c) => c.notNull())
    .addColumn("latitude", "double precision", (c) => c.notNull())
    .addColumn("longitude", "double precision", (c) => c.notNull())
    .addColumn("recorded_at", "datetime(3)", (c) => c.notNull())
    // km/h and degrees, when the phone sends them.
    .addColumn("speed", "double precision")
    .addColumn("heading", "double precision")
    .execute();
  await db.schema
    .createIndex("truck_checkpoints_client_idx")
    .on("truck_checkpoints")
    .columns(["truck_route_id", "client_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("truck_checkpoints_route_time_idx")
    .on("truck_checkpoints")
    .columns(["truck_route_id", "recorded_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("truck_checkpoints").ifExists().execute();
  await db.schema.dropTable("truck_routes").ifExists().execute();
  await db.schema.dropTable("truck_loads").ifExists().execute();
  await db.schema.dropTable("truck_measurements").ifExists().execute();
  await db.schema.dropTable("trucks").ifExists().execute();
}
