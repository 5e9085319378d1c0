import type { InvoiceLine, InvoiceStatus, SubscriptionStatus } from "#db/schema";
import { deriveFeatures, isPackageId, isPlanId, PACKAGES, PLAN_IDS, type PackageId } from "~/domain/billing";
import type { DB } from "~/utils/db.server";
import { AppError } from "~/utils/errors";

// The billing state of an organisation in our database: its account (subscription status as the
// provider reports it, remaining picture measurements), its items and invoices. Every function
// filters by the organisation id it is given (the caller's ctx.organizationId).
//
// The organisation's features are derived from its ACTIVE items and nothing else, and stored on
// organizations.features whenever items change (recomputeFeatures), so every gate keeps reading
// ctx.features. An item is active while the subscription is active or trialing and the item is
// not cancelled, or is cancelled but its paid period has not ended yet.

type Org = { organizationId: number };

export async function getBillingAccount(db: DB, ctx: Org) {
  return db
    .selectFrom("billing_accounts")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}
export type BillingAccount = NonNullable<Awaited<ReturnType<typeof getBillingAccount>>>;

export async function ensureBillingAccount(db: DB, ctx: Org): Promise<BillingAccount> {
  const existing = await getBillingAccount(db, ctx);
  if (existing) return existing;
  await db
    .insertInto("billing_accounts")
    .values({ organization_id: ctx.organizationId })
    .onDuplicateKeyUpdate({ organization_id: ctx.organizationId })
    .execute();
  return (await getBillingAccount(db, ctx))!;
}

export async function updateBillingAccount(
  db: DB,
  ctx: Org,
  values: Partial<{
    provider: "local" | "stripe";
    stripe_customer_id: string | null;
    stripe_subscription_id: string | null;
    status: SubscriptionStatus | null;
    interval: "month" | "year" | null;
    paid_until: Date | null;
    trial_end: Date | null;
    trial_used: boolean;
    cancel_at_period_end: boolean;
    billing_currency: string;
    collection_method: string;
  }>,
) {
  await ensureBillingAccount(db, { organizationId: ctx.organizationId });
  await db
    .updateTable("billing_accounts")
    .set({ ...values, updated_at: new Date() })
    .where("organization_id", "=", ctx.organizationId)
    .execute();
}

export async function listItems(db: DB, ctx: Org) {
  return db
    .selectFrom("subscription_items")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}
export type SubscriptionItemRow = Awaited<ReturnType<typeof listItems>>[number];

export function hasLiveSubscription(account: Pick<BillingAccount, "status"> | undefined | null) {
  return account?.status === "active" || account?.status === "trialing";
}

/** Items that grant features and seats right now. */
export function activeItems(
  account: BillingAccount | undefined | null,
  items: SubscriptionItemRow[],
  now = new Date(),
) {
  if (!hasLiveSubscription(account)) return [];
  return items.filter((i) => !i.cancelled || (account!.paid_until !== null && account!.paid_until > now));
}

/**
 * Stores the features derived from the active items on organizations.features (what every gate
 * reads through ctx.features) and returns them. Call after every change of items or status.
 */
export async function recomputeFeatures(db: DB, ctx: Org, now = new Date()): Promise<string[]> {
  const [account, items] = await Promise.all([getBillingAccount(db, ctx), listItems(db, ctx)]);
  const features = deriveFeatures(activeItems(account, items, now).map((i) => i.package_id));
  await db
    .updateTable("organizations")
    .set({ features: JSON.stringify(features) })
    .where("id", "=", ctx.organizationId)
    .execute();
  return features;
}

export async function upsertItem(
  db: DB,
  ctx: Org,
  item: { package_id: PackageId; quantity: number; cancelled?: boolean; stripe_item_id?: string | null },
) {
  await db
    .insertInto("subscription_items")
    .values({
      organization_id: ctx.organizationId,
      package_id: item.package_id,
      quantity: item.quantity,
      cancelled: item.cancelled ?? false,
      stripe_item_id: item.stripe_item_id ?? null,
    })
    .onDuplicateKeyUpdate({
      quantity: item.quantity,
      cancelled: item.cancelled ?? false,
      ...(item.stripe_item_id !== undefined ? { stripe_item_id: item.stripe_item_id } : {}),
    })
    .execute();
}

export async function setItemQuantity(db: DB, ctx: Org, packageId: string, quantity: number) {
  await db
    .updateTable("subscription_items")
    .set({ quantity })
    .where("organization_id", "=", ctx.organizationId)
    .where("package_id", "=", packageId)
    .execute();
}

export async function markItemCancelled(db: DB, ctx: Org, packageId: string) {
  await db
    .updateTable("subscription_items")
    .set({ cancelled: true })
    .where("organization_id", "=", ctx.organizationId)
    .where("package_id", "=", packageId)
    .execute();
}

export async function deleteItems(db: DB, ctx: Org, packageIds: string[]) {
  if (packageIds.length === 0) return;
  await db
    .deleteFrom("subscription_items")
    .where("organization_id", "=", ctx.organizationId)
    .where("package_id", "in", packageIds)
    .execute();
}

// ---- Views: the API's shapes -------------------------------------------------------------

export function itemView(item: SubscriptionItemRow) {
  const def = isPackageId(item.package_id) ? PACKAGES[item.package_id] : null;
  return {
    package_id: item.package_id,
    quantity: item.quantity,
    cancelled: item.cancelled,
    features: def ? [...def.features] : [],
    purchase_type: def?.purchase_type ?? "bundle",
    name: item.package_id,
  };
}
export type ItemView = ReturnType<typeof itemView>;

/** Subscription info of the spec: status, interval, paid_until, ... (dates as ISO strings). */
export async function getSubscriptionInfo(db: DB, ctx: Org) {
  const account = await getBillingAccount(db, ctx);
  return subscriptionInfoView(account);
}

export function subscriptionInfoView(account: BillingAccount | undefined | null) {
  return {
    status: account?.status ?? null,
    interval: account?.interval ?? null,
    paid_until: account?.paid_until?.toISOString() ?? null,
    trial_end: account?.trial_end?.toISOString() ?? null,
    cancel_at_period_end: account?.cancel_at_period_end ?? false,
    billing_currency: account?.billing_currency ?? "EUR",
    collection_method: account?.collection_method ?? "charge_automatically",
    remaining_measurements: account?.remaining_measurements ?? 0,
    trial_used: account?.trial_used ?? false,
    subscription: account?.status ? { provider: account.provider, id: account.stripe_subscription_id } : null,
  };
}
export type SubscriptionInfo = ReturnType<typeof subscriptionInfoView>;

// ---- Invoices ----------------------------------------------------------------------------

export async function listInvoices(db: DB, ctx: Org) {
  const rows = await db
    .selectFrom("invoices")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(invoiceView);
}

export function invoiceView(row: {
  id: number;
  number: string;
  total_cents: number;
  currency: string;
  lines: InvoiceLine[];
  status: InvoiceStatus;
  url: string | null;
  created_at: Date;
}) {
  return {
    id: row.id,
    number: row.number,
    total: row.total_cents / 100,
    currency: row.currency,
    lines: row.lines.map((l) => ({ description: l.description, quantity: l.quantity, amount: l.amount_cents / 100 })),
    created_at: Math.floor(row.created_at.getTime() / 1000),
    status: row.status,
    url: row.url,
  };
}
export type InvoiceView = ReturnType<typeof invoiceView>;

export async function countOpenInvoices(db: DB, ctx: Org) {
  const r = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .where("organization_id", "=", ctx.organizationId)
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return Number(r.c);
}

/** A local invoice (the local provider, or a record of a Stripe payment). Returns its view. */
export async function createInvoice(
  db: DB,
  ctx: Org,
  input: { lines: InvoiceLine[]; status: InvoiceStatus; currency?: string },
) {
  const count = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirstOrThrow();
  const number = `LOC-${ctx.organizationId}-${String(Number(count.c) + 1).padStart(4, "0")}`;
  const total = input.lines.reduce((s, l) => s + l.amount_cents, 0);
  const r = await db
    .insertInto("invoices")
    .values({
      organization_id: ctx.organizationId,
      number,
      total_cents: total,
      currency: input.currency ?? "EUR",
      lines: JSON.stringify(input.lines),
      status: input.status,
      url: `/billing/invoices#invoice-${number}`,
    })
    .executeTakeFirstOrThrow();
  const row = await db
    .selectFrom("invoices")
    .selectAll()
    .where("id", "=", Number(r.insertId))
    .executeTakeFirstOrThrow();
  return invoiceView(row);
}

export async function getInvoice(db: DB, ctx: Org, id: number) {
  const row = await db
    .selectFrom("invoices")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? invoiceView(row) : null;
}

/** An invoice Stripe raised (paid through Stripe), not one of the local provider's. */
export async function isStripeInvoice(db: DB, ctx: Org, id: number) {
  const row = await db
    .selectFrom("invoices")
    .select("stripe_invoice_id")
    .where("organization_id", "=", ctx.organizationId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Boolean(row?.stripe_invoice_id);
}

export async function setInvoiceStatus(db: DB, ctx: Org, id: number, status: InvoiceStatus) {
  await db
    .updateTable("invoices")
    .set({ status })
    .where("organization_id", "=", ctx.organizationId)
    .where("id", "=", id)
    .execute();
}

export async function upsertStripeInvoice(
  db: DB,
  ctx: Org,
  input: {
    stripe_invoice_id: string;
    number: string;
    total_cents: number;
    currency: string;
    lines: InvoiceLine[];
    status: InvoiceStatus;
    url: string | null;
    created_at: Date;
  },
) {
  await db
    .insertInto("invoices")
    .values({ organization_id: ctx.organizationId, ...input, lines: JSON.stringify(input.lines) })
    .onDuplicateKeyUpdate({
      number: input.number,
      total_cents: input.total_cents,
      status: input.status,
      url: input.url,
      lines: JSON.stringify(input.lines),
    })
    .execute();
}

// ---- Picture measurements ----------------------------------------------------------------

/** The organisation has no remaining picture measurements: 402, buy a picture package. */
export class PictureCreditError extends AppError {
  constructor() {
    super(402, "no_remaining_measurements");
  }
}

export async function addPictureCredits(db: DB, ctx: Org, pictures: number, reason: string) {
  await ensureBillingAccount(db, ctx);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ remaining_measurements: eb("remaining_measurements", "+", pictures), updated_at: new Date() }))
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    await trx
      .insertInto("picture_credit_events")
      .values({ organization_id: ctx.organizationId, delta: pictures, reason })
      .execute();
  });
}

/**
 * Called by the device upload for every measurement. An organisation with a live plan (a package,
 * not only bundles) measures without counting; otherwise one remaining measurement is consumed.
 * At zero it throws PictureCreditError (code no_remaining_measurements, HTTP 402): refuse the upload.
 */
export async function consumePictureCredit(db: DB, ctx: Org): Promise<{ consumed: boolean; remaining: number }> {
  const account = await getBillingAccount(db, { organizationId: ctx.organizationId });
  const items = await listItems(db, { organizationId: ctx.organizationId });
  const remaining = account?.remaining_measurements ?? 0;
  if (activeItems(account, items).some((i) => isPlanId(i.package_id))) return { consumed: false, remaining };
  // Inside the caller's transaction when given one, so a failed upload never costs a credit.
  const run = <T>(fn: (trx: DB) => Promise<T>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));
  return run(async (trx) => {
    const r = await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ remaining_measurements: eb("remaining_measurements", "-", 1) }))
      .where("organization_id", "=", ctx.organizationId)
      .where("remaining_measurements", ">", 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new PictureCreditError();
    await trx
      .insertInto("picture_credit_events")
      .values({ organization_id: ctx.organizationId, delta: -1, reason: "upload" })
      .execute();
    const after = await trx
      .selectFrom("billing_accounts")
      .select("remaining_measurements")
      .where("organization_id", "=", ctx.organizationId)
      .executeTakeFirstOrThrow();
    return { consumed: true, remaining: after.remaining_measurements };
  });
}

/**
 * The header's counter. The last-day warning shows when the measurements left would last at most
 * one more day at the pace of the last 24 hours (remaining <= used in the last 24 h), or when
 * none are left.
 */
export async function pictureCreditStatus(db: DB, ctx: Org, now = new Date()) {
  const account = await getBillingAccount(db, ctx);
  const remaining = account?.remaining_measurements ?? 0;
  const since = new Date(now.getTime() - 24 * 3600 * 1000);
  const used = await db
    .selectFrom("picture_credit_events")
    .select((eb) => eb.fn.sum<number>("delta").as("s"))
    .where("organization_id", "=", ctx.organizationId)
    .where("delta", "<", 0)
    .where("created_at", ">=", since)
    .executeTakeFirst();
  const usedLastDay = -Number(used?.s ?? 0);
  return { remaining, usedLastDay, lastDayWarning: remaining === 0 || (usedLastDay > 0 && remaining <= usedLastDay) };
}

// ---- Device seats ------------------------------------------------------------------------

/**
 * Seats per plan package: quantity bought and devices linked to it. Free = quantity - linked,
 * floor 0. Devices paired before billing (no package) are not counted against any package.
 */
export async function listDeviceSeats(db: DB, ctx: Org) {
  const [account, items, linked] = await Promise.all([
    getBillingAccount(db, ctx),
    listItems(db, ctx),
    db
      .selectFrom("devices")
      .select(["package_id", (eb) => eb.fn.countAll<number>().as("c")])
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .where("package_id", "is not", null)
      .groupBy("package_id")
      .execute(),
  ]);
  const byPackage = new Map(linked.map((r) => [r.package_id, Number(r.c)]));
  return activeItems(account, items)
    .filter((i) => isPlanId(i.package_id))
    .sort((a, b) => PLAN_IDS.indexOf(a.package_id as never) - PLAN_IDS.indexOf(b.package_id as never))
    .map((i) => ({ package_id: i.package_id, quantity: i.quantity, devices_linked: byPackage.get(i.package_id) ?? 0 }));
}

export function freeSeats(seat: { quantity: number; devices_linked: number }) {
  return Math.max(0, seat.quantity - seat.devices_linked);
}

/** The first plan package with a free seat, or null when every seat is taken. */
export async function findFreeSeat(db: DB, ctx: Org): Promise<string | null> {
  const seats = await listDeviceSeats(db, ctx);
  return seats.find((s) => freeSeats(s) > 0)?.package_id ?? null;
}
