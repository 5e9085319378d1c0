import { type Kysely, sql } from "kysely";

// Accounts: one-time tokens (password reset, invitation, e-mail verification, the pending
// two-factor step of a login), the password history behind PASSWORD_ALREADY_USED, backup codes
// of two-factor sign-in, and the disabled flag behind CONTACT_SUPPORT.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    // JSON array of SHA-256 hashes of the unused backup codes.
    .addColumn("otp_backup_codes", "json")
    // Set by support: the account exists but may not sign in (CONTACT_SUPPORT).
    .addColumn("disabled_at", "datetime(3)")
    .execute();

  await db.schema
    .createTable("user_tokens")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("user_id", "bigint", (c) => c.unsigned().notNull().references("users.id").onDelete("cascade"))
    .addColumn("organization_id", "bigint", (c) => c.unsigned().references("organizations.id").onDelete("cascade"))
    // password_reset, invitation, verification, login_otp
    .addColumn("purpose", "varchar(32)", (c) => c.notNull())
    // SHA-256 of the token sent by e-mail; the token itself is never stored.
    .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
    .addColumn("expires_at", "datetime(3)", (c) => c.notNull())
    .addColumn("used_at", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("user_tokens_user_idx").on("user_tokens").columns(["user_id", "purpose"]).execute();

  await db.schema
    .createTable("password_history")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("user_id", "bigint", (c) => c.unsigned().notNull().references("users.id").onDelete("cascade"))
    .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("password_history_user_idx").on("password_history").column("user_id").execute();

  // Timber master data beyond the foundation's lookups: diameter profiles (a set of assortments
  // with non-overlapping diameter ranges and a default cull) and lumber products (plank sizes).
  await db.schema
    .createTable("diameter_profiles")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("default_cull_id", "bigint", (c) => c.unsigned().references("culls.id").onDelete("set null"))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("diameter_profiles_org_idx").on("diameter_profiles").column("organization_id").execute();
  await db.schema
    .createTable("diameter_profile_assortments")
    .addColumn("diameter_profile_id", "bigint", (c) =>
      c.unsigned().notNull().references("diameter_profiles.id").onDelete("cascade"),
    )
    .addColumn("assortment_id", "bigint", (c) =>
      c.unsigned().notNull().references("assortments.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("diameter_profile_assortments_pk", ["diameter_profile_id", "assortment_id"])
    .execute();
  await db.schema
    .createTable("lumber_products")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    // Plank sizes in millimetres.
    .addColumn("plank_length", "double precision", (c) => c.notNull())
    .addColumn("plank_width", "double precision", (c) => c.notNull())
    .addColumn("plank_height", "double precision", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("lumber_products_org_idx").on("lumber_products").column("organization_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["lumber_products", "diameter_profile_assortments", "diameter_profiles"])
    await db.schema.dropTable(t).ifExists().execute();
  await db.schema.dropTable("password_history").ifExists().execute();
  await db.schema.dropTable("user_tokens").ifExists().execute();
  await db.schema.alterTable("users").dropColumn("otp_backup_codes").dropColumn("disabled_at").execute();
}
