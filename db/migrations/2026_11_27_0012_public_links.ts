import { sql, type Kysely } from "kysely";

// Public links (docs/decisions/013-public-links.md): one table for every kind of record shared
// by token (measurement, storage; containers, bills of lading and mixed stack reports later),
// and the per-address request counters of the public routes, shared by every web process.
//
// A link keeps the SHA-256 of its token (what a visitor's token is looked up by) and the random
// seed the token is derived from with the server secret (so its owner can copy it again); the
// token itself is never stored. Tokens that storages and measurements kept in plain text before
// this move here by their hash only: they keep working, and their owner rotates them to get a
// link that can be shown again.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("public_links")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("kind", "varchar(32)", (c) => c.notNull())
    // The shared record's id in the kind's own table (no foreign key: the table depends on the kind).
    .addColumn("record_id", "bigint", (c) => c.unsigned().notNull())
    .addColumn("token_hash", "char(64)", (c) => c.notNull())
    .addColumn("token_seed", "char(22)")
    .addColumn("time_zone", "varchar(64)", (c) => c.notNull().defaultTo("UTC"))
    .addColumn("created_by", "bigint", (c) => c.unsigned().references("users.id").onDelete("set null"))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("rotated_at", "datetime(3)")
    .addColumn("last_opened_at", "datetime(3)")
    .execute();
  await db.schema.createIndex("public_links_token_hash_idx").on("public_links").column("token_hash").unique().execute();
  await db.schema
    .createIndex("public_links_record_idx")
    .on("public_links")
    .columns(["organization_id", "kind", "record_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("public_rate_limits")
    .addColumn("client", "varchar(64)", (c) => c.notNull())
    .addColumn("window_start", "integer", (c) => c.unsigned().notNull())
    .addColumn("hits", "integer", (c) => c.unsigned().notNull())
    .addPrimaryKeyConstraint("public_rate_limits_pk", ["client", "window_start"])
    .execute();
  await db.schema
    .createIndex("public_rate_limits_window_idx")
    .on("public_rate_limits")
    .column("window_start")
    .execute();

  // The plain tokens of before: kept working by their hash, never shown again.
  for (const [table, kind] of [
    ["storages", "storage"],
    ["measurements", "measurement"],
  ] as const) {
    await sql`
      INSERT INTO public_links (organization_id, kind, record_id, token_hash, token_seed, created_at)
      SELECT organization_id, ${kind}, id, SHA2(token, 256), NULL, created_at
      FROM ${sql.table(table)}
      WHERE token IS NOT NULL AND token <> '' AND deleted_at IS NULL
    `.execute(db);
  }
  await db.schema.dropIndex("storages_token_idx").on("storages").execute();
  await db.schema.alterTable("storages").dropColumn("token").execute();
  await db.schema.alterTable("measurements").dropColumn("token").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurements").addColumn("token", "varchar(64)").execute();
  await db.schema.alterTable("storages").addColumn("token", "varchar(64)").execute();
  await db.schema.createIndex("storages_token_idx").on("storages").column("token").unique().execute();
  await db.schema.dropTable("public_rate_limits").execute();
  await db.schema.dropTable("public_links").execute();
}
