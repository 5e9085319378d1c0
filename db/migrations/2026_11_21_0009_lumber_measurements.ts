import { type Kysely, sql } from "kysely";

// Lumber measurements: a photo of a package's end with its planks marked as rectangles in image
// pixels. The plank count and the volume (m³, from the product's plank size) are kept on the
// row, recomputed by the server on every plank edit, so storages and lists can sum them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("lumber_measurements")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id"))
    .addColumn("device_id", "bigint", (c) => c.unsigned())
    .addColumn("user_id", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    // A deleted product leaves its measurements without a size: their volume stays as last computed.
    .addColumn("lumber_product_id", "bigint", (c) => c.unsigned().references("lumber_products.id").onDelete("set null"))
    .addColumn("measurement_type_id", sql`tinyint`, (c) => c.unsigned().notNull().defaultTo(0))
    .addColumn("taken_at", "datetime(3)", (c) => c.notNull())
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("plank_count", "integer", (c) => c.unsigned().notNull().defaultTo(0))
    // m³
    .addColumn("volume", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("photo_file_name", "varchar(255)")
    .addColumn("photo_key", "varchar(255)")
    .addColumn("photo_width", "integer", (c) => c.unsigned())
    .addColumn("photo_height", "integer", (c) => c.unsigned())
    .addColumn("comment", "text")
    .addColumn("custom_fields", "json", (c) => c.notNull().defaultTo(sql`('{}')`))
    .addColumn("inventory_id", "bigint", (c) => c.unsigned())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("deleted_at", "datetime(3)")
    .execute();
  await db.schema
    .createIndex("lumber_measurements_org_storage_taken_idx")
    .on("lumber_measurements")
    .columns(["organization_id", "storage_id", "taken_at"])
    .execute();

  await db.schema
    .createTable("planks")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("lumber_measurement_id", "bigint", (c) =>
      c.unsigned().notNull().references("lumber_measurements.id").onDelete("cascade"),
    )
    // The plank's end on the photo: top-left corner and size, in image pixels.
    .addColumn("x", "double precision", (c) => c.notNull())
    .addColumn("y", "double precision", (c) => c.notNull())
    .addColumn("width", "double precision", (c) => c.notNull())
    .addColumn("height", "double precision", (c) => c.notNull())
    .addColumn("is_deleted", "boolean", (c) => c.notNull().defaultTo(false))
    // Set when a person added, moved or removed the plank (the overlay draws those red).
    .addColumn("modified_at", "datetime(3)")
    .execute();
  await db.schema.createIndex("planks_measurement_idx").on("planks").column("lumber_measurement_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("planks").ifExists().execute();
  await db.schema.dropTable("lumber_measurements").ifExists().execute();
}
