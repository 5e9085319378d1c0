import { sql, type Kysely } from "kysely";

// Inventories (docs/decisions/014-inventories.md): a stock-take of one storage. An open
// (unconfirmed) inventory counts the storage's live measurements that no inventory holds yet;
// confirming it stamps confirmed_at and writes its id into measurements.inventory_id and
// lumber_measurements.inventory_id, which locks them. The figures are never stored: they are
// computed from the measurements an inventory holds (and, for "calculated", from those its
// previous confirmed inventory holds), which can no longer change once locked.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("inventories")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("storage_id", "bigint", (c) => c.unsigned().notNull().references("storages.id").onDelete("cascade"))
    // The storage's last confirmed inventory when this one was opened: its inventoried volume is
    // the opening stock of "calculated".
    .addColumn("previous_inventory_id", "bigint", (c) => c.unsigned())
    .addColumn("created_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("confirmed_at", "datetime(3)")
    .addColumn("confirmed_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    // Set while the inventory is open, NULL once confirmed: the unique index keeps one open
    // inventory per storage even when two clerks create one at the same moment.
    .addColumn("open_storage_id", "bigint", (c) => c.unsigned())
    .execute();
  await db.schema
    .createIndex("inventories_org_created_idx")
    .on("inventories")
    .columns(["organization_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("inventories_storage_idx")
    .on("inventories")
    .columns(["storage_id", "confirmed_at"])
    .execute();
  await db.schema
    .createIndex("inventories_open_storage_idx")
    .on("inventories")
    .column("open_storage_id")
    .unique()
    .execute();
  // What an inventory holds is read by inventory_id.
  await db.schema
    .createIndex("measurements_inventory_idx")
    .on("measurements")
    .columns(["organization_id", "inventory_id"])
    .execute();
  await db.schema
    .createIndex("lumber_measurements_inventory_idx")
    .on("lumber_measurements")
    .columns(["organization_id", "inventory_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("lumber_measurements_inventory_idx").on("lumber_measurements").ifExists().execute();
  await db.schema.dropIndex("measurements_inventory_idx").on("measurements").ifExists().execute();
  await db.schema.dropTable("inventories").ifExists().execute();
}
