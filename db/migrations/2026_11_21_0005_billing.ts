import { type Kysely, sql } from "kysely";

// Billing (issue 5): one billing account per organisation (the subscription's state as the
// provider reports it, and the remaining picture measurements), its plan and bundle items, its
// invoices, the picture-credit ledger, the provider events already applied (webhook idempotency)
// and the local provider's pending checkouts. Devices remember which package seat they occupy.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("billing_accounts")
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().primaryKey().references("organizations.id").onDelete("cascade"),
    )
    // local or stripe: which provider holds this organisation's subscription
    .addColumn("provider", "varchar(16)", (c) => c.notNull().defaultTo("local"))
    .addColumn("stripe_customer_id", "varchar(255)")
    .addColumn("stripe_subscription_id", "varchar(255)")
    // active, trialing, canceled, or null without a subscription
    .addColumn("status", "varchar(16)")
    // month or year
    .addColumn("interval", "varchar(8)")
    .addColumn("paid_until", "datetime(3)")
    .addColumn("trial_end", "datetime(3)")
    .addColumn("trial_used", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("cancel_at_period_end", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("billing_currency", "varchar(3)", (c) => c.notNull().defaultTo("EUR"))
    .addColumn("collection_method", "varchar(32)", (c) => c.notNull().defaultTo("charge_automatically"))
    .addColumn("remaining_measurements", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn("updated_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("billing_accounts_customer_idx")
    .on("billing_accounts")
    .column("stripe_customer_id")
    .execute();

  await db.schema
    .createTable("subscription_items")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("package_id", "varchar(64)", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().defaultTo(1))
    // DELETE marks it cancelled; it keeps its features until the paid period ends.
    .addColumn("cancelled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("stripe_item_id", "varchar(255)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("subscription_items_pkg_idx")
    .on("subscription_items")
    .columns(["organization_id", "package_id"])
    .unique()
    .execute();

  await db.schema
    .createTable("invoices")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("number", "varchar(64)", (c) => c.notNull())
    // cents of the currency
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "varchar(3)", (c) => c.notNull().defaultTo("EUR"))
    // [{description, amount_cents, quantity}]
    .addColumn("lines", "json", (c) => c.notNull())
    // paid, open, void
    .addColumn("status", "varchar(8)", (c) => c.notNull())
    .addColumn("url", "varchar(1024)")
    .addColumn("stripe_invoice_id", "varchar(255)", (c) => c.unique())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema.createIndex("invoices_org_idx").on("invoices").columns(["organization_id", "created_at"]).execute();

  await db.schema
    .createTable("picture_credit_events")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    // +N for a bought package, -1 for an upload
    .addColumn("delta", "integer", (c) => c.notNull())
    .addColumn("reason", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
  await db.schema
    .createIndex("picture_credit_events_org_idx")
    .on("picture_credit_events")
    .columns(["organization_id", "created_at"])
    .execute();

  await db.schema
    .createTable("billing_events")
    // the provider's event id (Stripe evt_...): applying an event twice is refused by this key
    .addColumn("id", "varchar(255)", (c) => c.primaryKey())
    .addColumn("type", "varchar(128)", (c) => c.notNull())
    .addColumn("organization_id", "bigint", (c) => c.unsigned())
    .addColumn("received_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();

  await db.schema
    .createTable("local_checkouts")
    .addColumn("id", "bigint", (c) => c.unsigned().autoIncrement().primaryKey())
    .addColumn("organization_id", "bigint", (c) =>
      c.unsigned().notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("token", "char(32)", (c) => c.notNull().unique())
    // subscription or picture_package
    .addColumn("kind", "varchar(32)", (c) => c.notNull())
    .addColumn("payload", "json", (c) => c.notNull())
    .addColumn("completed_at", "datetime(3)")
    .addColumn("created_at", "datetime(3)", (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();

  // The package whose seat a paired device occupies (null for devices paired before billing).
  await db.schema.alterTable("devices").addColumn("package_id", "varchar(64)").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("devices").dropColumn("package_id").execute();
  for (const t of [
    "local_checkouts",
    "billing_events",
    "picture_credit_events",
    "invoices",
    "subscription_items",
    "billing_accounts",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
