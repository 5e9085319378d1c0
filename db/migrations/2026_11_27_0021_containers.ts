import { type Kysely, sql } from "kysely";

// Containers and bills of lading (docs/decisions/022-containers.md): export logs loaded into
// shipping containers, grouped under bills of lading. A container measurement is the fourth
// measurement kind (decision 008's shared columns: client id, photo columns, custom fields,
// inventory lock, soft delete) plus its own lock (locked_at, set when the container is sealed)
// and its container. Its logs and references are its own tables. Each measurement keeps its JAS
// log count and volume (app/domain/container.ts) so containers and bills sum columns.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("container_contracts")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("container_contracts_org_idx")
    .on("container_contracts")
    .columns(["organization_id", "name"])
    .execute();

  await db.schema
    .createTable("bill_of_ladings")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("contract_id", "bigint", (c) => c.unsigned().references("container_contracts.id").onDelete("set null"))
    // The assortment (wood characteristic) the bill is sold as: the invoice's price.
    .addColumn("wood_characteristic_id", "bigint", (c) => c.unsigned())
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("bill_of_ladings_org_idx")
    .on("bill_of_ladings")
    .columns(["organization_id", "archived", "id"])
    .execute();

  await db.schema
    .createTable("containers")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("bill_of_lading_id", "bigint", (c) => c.unsigned().references("bill_of_ladings.id").onDelete("set null"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    // Free text as the spec says (a seal number, "28 t", "2.35 m").
    .addColumn("seal_number", "varchar(64)")
    .addColumn("weight", "varchar(64)")
    .addColumn("width", "varchar(64)")
    .addColumn("height", "varchar(64)")
    // kg
    .addColumn("tare_weight", "double precision")
    .addColumn("net_weight", "double precision")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("containers_org_bol_idx")
    .on("containers")
    .columns(["organization_id", "bill_of_lading_id", "id"])
    .execute();

  await db.schema
    .createTable("container_measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id"))
    .addColumn("container_id", "bigint", (c) => c.unsigned().references("containers.id").onDelete("set null"))
    .addColumn("device_id", "bigint", (c) => c.unsigned())
    .addColumn("client_id", "varchar(64)")
    .addColumn("measurement_type_id", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("shipment_number", "varchar(64)")
    .addColumn("taken_at", "datetime(3)", (c) => c.notNull())
    .addColumn("measured_at", "datetime(3)")
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("wood_type_id", "bigint", (c) => c.unsigned())
    .addColumn("wood_quality_id", "bigint", (c) => c.unsigned())
    .addColumn("assortment_id", "bigint", (c) => c.unsigned())
    // metres
    .addColumn("log_length", "double precision")
    .addColumn("volume_formula", "varchar(32)", (c) => c.notNull().defaultTo("jas"))
    .addColumn("coefficient", "double precision")
    .addColumn("logs_count", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    // m³, the sum of the kept logs' volumes (JAS: each log rounded first).
    .addColumn("volume", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_at", "datetime(3)")
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
  // The container filter's aggregate reads this index alone per container.
  await db.schema
    .createIndex("container_measurements_org_container_idx")
    .on("container_measurements")
    .columns(["organization_id", "container_id", "deleted_at", "logs_count", "volume"])
    .execute();
  await db.schema
    .createIndex("container_measurements_org_taken_idx")
    .on("container_measurements")
    .columns(["organization_id", "deleted_at", "taken_at"])
    .execute();
  await db.schema
    .createIndex("container_measurements_client_idx")
    .on("container_measurements")
    .columns(["organization_id", "client_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("container_measurements_photo_status_idx")
    .on("container_measurements")
    .columns(["photo_status", "photo_enqueued_at"])
    .execute();

  await db.schema
    .createTable("container_measurement_logs")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("container_measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("container_measurements.id").onDelete("cascade"),
    )
    // pixels of the photo
    .addColumn("x", "double precision", (c) => c.notNull())
    .addColumn("y", "double precision", (c) => c.notNull())
    .addColumn("r", "double precision", (c) => c.notNull())
    // cm (short axis of the small end) and the JAS scaling diameter, cm; m³
    .addColumn("d", "double precision", (c) => c.notNull())
    .addColumn("jas_d", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("v", "double precision", (c) => c.notNull())
    .addColumn("is_deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("modified_at", "datetime(3)")
    .execute();
  await db.schema
    .createIndex("container_measurement_logs_measurement_idx")
    .on("container_measurement_logs")
    .columns(["container_measurement_id", "id"])
    .execute();

  await db.schema
    .createTable("container_measurement_references")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("container_measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("container_measurements.id").onDelete("cascade"),
    )
    .addColumn("x1", "double precision", (c) => c.notNull())
    .addColumn("y1", "double precision", (c) => c.notNull())
    .addColumn("x2", "double precision", (c) => c.notNull())
    .addColumn("y2", "double precision", (c) => c.notNull())
    // metres (shown in cm)
    .addColumn("size", "double precision", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("container_measurement_references_measurement_idx")
    .on("container_measurement_references")
    .columns(["container_measurement_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("container_measurement_references").ifExists().execute();
  await db.schema.dropTable("container_measurement_logs").ifExists().execute();
  await db.schema.dropTable("container_measurements").ifExists().execute();
  await db.schema.dropTable("containers").ifExists().execute();
  await db.schema.dropTable("bill_of_ladings").ifExists().execute();
  await db.schema.dropTable("container_contracts").ifExists().execute();
}
