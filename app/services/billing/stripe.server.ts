import Stripe from "stripe";
import type { InvoiceLine, InvoiceStatus, SubscriptionStatus } from "#db/schema";
import {
  cents,
  isPackageId,
  isPicturePlanId,
  packageFromLookupKey,
  PICTURE_PLANS,
  stripeLookupKey,
  TRIAL_MONTHS,
  type PackageId,
} from "~/domain/billing";
import {
  addPictureCredits,
  createInvoice,
  deleteItems,
  ensureBillingAccount,
  getBillingAccount,
  listItems,
  markItemCancelled,
  recomputeFeatures,
  setItemQuantity,
  updateBillingAccount,
  upsertItem,
  upsertStripeInvoice,
  invoiceView,
} from "~/models/billing.server";
import type { DB } from "~/utils/db.server";
import type { BillingCustomer, BillingProvider } from "./provider.server";

// The Stripe adapter. Prices live in Stripe and are found by lookup key "<package_id>_<month|year>"
// (see stripeLookupKey); picture packages are one-time Checkout payments with inline price_data.
// Our database follows Stripe: the success redirect of Checkout changes nothing; the signed
// webhooks (handleStripeEvent) store the subscription, its items and invoices. Answers of direct
// server-to-server calls (adding or changing an item) are stored at once too, and again by the
// webhook that follows (idempotent upserts).

export function stripeClient(secretKey: string) {
  return new Stripe(secretKey, { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 0 });
}

function addMonths(date: Date, months: number) {
  const d = new Date(date);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

export function createStripeProvider(
  db: DB,
  opts: { secretKey: string; appUrl: string; stripe?: Stripe },
): BillingProvider {
  const stripe = opts.stripe ?? stripeClient(opts.secretKey);
  const url = (path: string) => new URL(path, opts.appUrl).toString();

  async function customerId(c: BillingCustomer) {
    const account = await ensureBillingAccount(db, { organizationId: c.organizationId });
    if (account.stripe_customer_id) return account.stripe_customer_id;
    const customer = await stripe.customers.create({
      name: c.organization.name,
      email: c.organization.invoice_email ?? c.user.email,
      metadata: { organization_id: String(c.organizationId) },
    });
    await updateBillingAccount(
      db,
      { organizationId: c.organizationId },
      { provider: "stripe", stripe_customer_id: customer.id },
    );
    return customer.id;
  }

  async function priceIds(packageIds: string[], interval: "month" | "year") {
    const keys = packageIds.map((p) => stripeLookupKey(p as PackageId, interval));
    const prices = await stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 });
    const byKey = new Map(prices.data.map((p) => [p.lookup_key, p.id]));
    return keys.map((k) => {
      const id = byKey.get(k);
      if (!id) throw new Error(`Stripe has no active price with lookup key ${k}`);
      return id;
    });
  }

  /** The invoice Stripe raised for a change (always_invoice): stored, and answered when still open. */
  async function pendingInvoice(c: BillingCustomer, subscription: string) {
    const list = await stripe.invoices.list({ subscription, limit: 1 });
    return list.data[0] ? storeStripeInvoice(db, c.organizationId, list.data[0]) : null;
  }

  async function live(c: BillingCustomer) {
    const account = (await getBillingAccount(db, { organizationId: c.organizationId }))!;
    if (!account.stripe_subscription_id) throw new Error("the subscription is not known from Stripe yet");
    return account as typeof account & { stripe_subscription_id: string };
  }

  return {
    name: "stripe",

    async checkoutSubscription(c, input) {
      const interval = input.period === 12 ? "year" : "month";
      const customer = await customerId(c);
      const prices = await priceIds(
        input.line_items.map((li) => li.package_id),
        interval,
      );
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer,
        client_reference_id: String(c.organizationId),
        line_items: input.line_items.map((li, i) => ({ price: prices[i], quantity: li.quantity })),
        subscription_data: {
          metadata: { organization_id: String(c.organizationId) },
          ...(input.trial ? { trial_end: Math.floor(addMonths(new Date(), TRIAL_MONTHS).getTime() / 1000) } : {}),
        },
        metadata: { organization_id: String(c.organizationId), kind: "subscription" },
        success_url: url("/billing?checkout=success"),
        cancel_url: url("/billing?checkout=cancelled"),
      });
      return { redirect_url: session.url! };
    },

    async checkoutPicturePackage(c, packageId) {
      if (!isPicturePlanId(packageId)) throw new Error(`unknown picture plan ${packageId}`);
      const plan = PICTURE_PLANS[packageId];
      const session = await stripe.checkout.sessions.create({
        mode: "payment",
        customer: await customerId(c),
        client_reference_id: String(c.organizationId),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "eur",
              unit_amount: cents(plan.price),
              product_data: { name: `${plan.pictures} measurements (${packageId})` },
            },
          },
        ],
        metadata: { organization_id: String(c.organizationId), kind: "picture_package", picture_package: packageId },
        success_url: url(`/billing/measurements?checkout=success`),
        cancel_url: url(`/billing/measurements?checkout=cancelled`),
      });
      return { redirect_url: session.url! };
    },

    async addItem(c, input) {
      const account = await live(c);
      const [price] = await priceIds([input.package_id], account.interval ?? "month");
      const item = await stripe.subscriptionItems.create({
        subscription: account.stripe_subscription_id,
        price,
        quantity: input.quantity,
        proration_behavior: "always_invoice",
        payment_behavior: "allow_incomplete",
      });
      await upsertItem(
        db,
        { organizationId: c.organizationId },
        {
          package_id: input.package_id as PackageId,
          quantity: input.quantity,
          stripe_item_id: item.id,
        },
      );
      await recomputeFeatures(db, { organizationId: c.organizationId });
      return { invoice: await pendingInvoice(c, account.stripe_subscription_id) };
    },

    async updateItem(c, input) {
      const account = await live(c);
      const item = (await listItems(db, { organizationId: c.organizationId })).find(
        (i) => i.package_id === input.package_id,
      )!;
      await stripe.subscriptionItems.update(item.stripe_item_id!, {
        quantity: input.quantity,
        proration_behavior: "always_invoice",
        payment_behavior: "allow_incomplete",
      });
      await setItemQuantity(db, { organizationId: c.organizationId }, input.package_id, input.quantity);
      await recomputeFeatures(db, { organizationId: c.organizationId });
      return { invoice: await pendingInvoice(c, account.stripe_subscription_id) };
    },

    async cancelItem(c, packageId) {
      const account = await live(c);
      const items = await listItems(db, { organizationId: c.organizationId });
      const item = items.find((i) => i.package_id === packageId)!;
      const others = items.filter((i) => i.package_id !== packageId && !i.cancelled);
      if (others.length === 0) {
        // Stripe keeps at least one item: the last one ends with the subscription at period end.
        await stripe.subscriptions.update(account.stripe_subscription_id, { cancel_at_period_end: true });
      } else {
        // Removed without proration: already paid until paid_until, where our row keeps it (cancelled).
        await stripe.subscriptionItems.del(item.stripe_item_id!, { proration_behavior: "none" });
      }
      await markItemCancelled(db, { organizationId: c.organizationId }, packageId);
      await recomputeFeatures(db, { organizationId: c.organizationId });
    },

    async preview(c, input) {
      const account = await live(c);
      const item = (await listItems(db, { organizationId: c.organizationId })).find(
        (i) => i.package_id === input.package_id && !i.cancelled,
      );
      const line = item?.stripe_item_id
        ? { id: item.stripe_item_id, quantity: input.quantity }
        : { price: (await priceIds([input.package_id], account.interval ?? "month"))[0], quantity: input.quantity };
      const invoice = await stripe.invoices.createPreview({
        customer: account.stripe_customer_id!,
        subscription: account.stripe_subscription_id,
        subscription_details: { items: [line], proration_behavior: "always_invoice" },
      });
      return { amount_due: invoice.amount_due / 100 };
    },

    async customerPortal(c) {
      const session = await stripe.billingPortal.sessions.create({
        customer: await customerId(c),
        return_url: url("/billing"),
      });
      return { portal_url: session.url };
    },
  };
}

// ---- Webhooks ----------------------------------------------------------------------------

/**
 * Verifies and applies one webhook delivery. 400 on a bad signature; each event id is applied at
 * most once (billing_events primary key), so a replay answers 200 and changes nothing.
 */
export async function handleStripeWebhook(
  db: DB,
  request: Request,
  opts: { webhookSecret: string; secretKey?: string },
) {
  const payload = await request.text();
  const signature = request.headers.get("stripe-signature") ?? "";
  const stripe = stripeClient(opts.secretKey ?? "sk_unused_for_verification");
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, opts.webhookSecret);
  } catch {
    return Response.json({ error: "invalid_signature" }, { status: 400 });
  }
  const applied = await applyStripeEvent(db, event);
  return Response.json({ received: true, duplicate: !applied });
}

async function organizationOf(
  db: DB,
  object: { metadata?: Record<string, string> | null; customer?: unknown; client_reference_id?: string | null },
) {
  const fromRef = Number(object.client_reference_id ?? object.metadata?.organization_id);
  if (Number.isInteger(fromRef) && fromRef > 0) {
    const org = await db.selectFrom("organizations").select("id").where("id", "=", fromRef).executeTakeFirst();
    if (org) return org.id;
  }
  const customer =
    typeof object.customer === "string" ? object.customer : (object.customer as { id?: string } | null)?.id;
  if (!customer) return null;
  const account = await db
    .selectFrom("billing_accounts")
    .select("organization_id")
    .where("stripe_customer_id", "=", customer)
    .executeTakeFirst();
  return account?.organization_id ?? null;
}

/** Applies the event unless its id was already applied; true when it was applied now. */
export async function applyStripeEvent(db: DB, event: Stripe.Event): Promise<boolean> {
  try {
    await db.insertInto("billing_events").values({ id: event.id, type: event.type }).execute();
  } catch (error) {
    if (error instanceof Error && /Duplicate/.test(error.message)) return false;
    throw error;
  }
  try {
    const organizationId = await applyEvent(db, event);
    if (organizationId)
      await db
        .updateTable("billing_events")
        .set({ organization_id: organizationId })
        .where("id", "=", event.id)
        .execute();
    return true;
  } catch (error) {
    // Not applied: let Stripe deliver it again.
    await db.deleteFrom("billing_events").where("id", "=", event.id).execute();
    throw error;
  }
}

function subscriptionStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  if (status === "trialing") return "trialing";
  if (status === "active" || status === "past_due") return "active";
  return "canceled";
}

function invoiceStatus(status: Stripe.Invoice.Status | null): InvoiceStatus | null {
  if (status === "paid") return "paid";
  if (status === "open") return "open";
  if (status === "void" || status === "uncollectible") return "void";
  return null; // drafts are not shown
}

async function applyEvent(db: DB, event: Stripe.Event): Promise<number | null> {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const orgId = await organizationOf(db, session);
      if (!orgId) return null;
      const customer = typeof session.customer === "string" ? session.customer : (session.customer?.id ?? null);
      await updateBillingAccount(
        db,
        { organizationId: orgId },
        {
          provider: "stripe",
          ...(customer ? { stripe_customer_id: customer } : {}),
          ...(session.mode === "subscription" && session.subscription
            ? {
                stripe_subscription_id:
                  typeof session.subscription === "string" ? session.subscription : session.subscription.id,
              }
            : {}),
        },
      );
      const plan = session.metadata?.picture_package;
      if (session.mode === "payment" && session.payment_status === "paid" && isPicturePlanId(plan)) {
        await addPictureCredits(db, { organizationId: orgId }, PICTURE_PLANS[plan].pictures, plan);
        await createInvoice(
          db,
          { organizationId: orgId },
          {
            lines: [{ description: plan, quantity: 1, amount_cents: session.amount_total ?? 0 }],
            status: "paid",
          },
        );
      }
      return orgId;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      const orgId = await organizationOf(db, sub);
      if (!orgId) return null;
      await syncSubscription(db, orgId, sub, event.type === "customer.subscription.deleted");
      return orgId;
    }
    case "invoice.created":
    case "invoice.finalized":
    case "invoice.updated":
    case "invoice.paid":
    case "invoice.payment_succeeded":
    case "invoice.payment_failed":
    case "invoice.voided":
    case "invoice.marked_uncollectible": {
      const invoice = event.data.object;
      const orgId = await organizationOf(db, invoice);
      if (orgId) await storeStripeInvoice(db, orgId, invoice);
      return orgId;
    }
    default:
      return null;
  }
}

/** Stores a Stripe invoice (drafts are not shown); answers its view when it is open. */
export async function storeStripeInvoice(db: DB, orgId: number, invoice: Stripe.Invoice) {
  const status = invoiceStatus(invoice.status);
  if (!status || !invoice.id) return null;
  const lines: InvoiceLine[] = (invoice.lines?.data ?? []).map((l) => ({
    description: l.description ?? "",
    quantity: l.quantity ?? 1,
    amount_cents: l.amount,
  }));
  await upsertStripeInvoice(
    db,
    { organizationId: orgId },
    {
      stripe_invoice_id: invoice.id,
      number: invoice.number ?? invoice.id,
      total_cents: invoice.total,
      currency: invoice.currency.toUpperCase(),
      lines,
      status,
      url: invoice.hosted_invoice_url ?? null,
      created_at: new Date(invoice.created * 1000),
    },
  );
  if (status !== "open") return null;
  const row = await db
    .selectFrom("invoices")
    .selectAll()
    .where("organization_id", "=", orgId)
    .where("stripe_invoice_id", "=", invoice.id)
    .executeTakeFirstOrThrow();
  return invoiceView(row);
}

function periodEnd(sub: Stripe.Subscription): number | null {
  const fromItems = sub.items?.data
    ?.map((i) => (i as { current_period_end?: number }).current_period_end)
    .filter((v): v is number => typeof v === "number");
  if (fromItems?.length) return Math.max(...fromItems);
  return (sub as unknown as { current_period_end?: number }).current_period_end ?? null;
}

export async function syncSubscription(
  db: DB,
  orgId: number,
  sub: Stripe.Subscription,
  deleted = false,
  now = new Date(),
) {
  const status = deleted ? "canceled" : subscriptionStatus(sub.status);
  const end = periodEnd(sub);
  const first = sub.items?.data?.[0];
  await updateBillingAccount(
    db,
    { organizationId: orgId },
    {
      provider: "stripe",
      stripe_subscription_id: sub.id,
      stripe_customer_id: typeof sub.customer === "string" ? sub.customer : sub.customer.id,
      status,
      interval: first?.price?.recurring?.interval === "year" ? "year" : "month",
      paid_until: end ? new Date(end * 1000) : null,
      trial_end: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
      ...(sub.trial_end ? { trial_used: true } : {}),
      cancel_at_period_end: sub.cancel_at_period_end,
      billing_currency: (sub.currency ?? "eur").toUpperCase(),
      collection_method: sub.collection_method,
    },
  );
  const existing = await listItems(db, { organizationId: orgId });
  if (deleted) {
    await deleteItems(
      db,
      { organizationId: orgId },
      existing.map((i) => i.package_id),
    );
  } else {
    const seen = new Set<string>();
    for (const item of sub.items.data) {
      const pkg =
        packageFromLookupKey(item.price.lookup_key) ??
        (isPackageId(item.price.metadata?.package_id) ? item.price.metadata.package_id : null);
      if (!pkg) continue;
      seen.add(pkg);
      const local = existing.find((i) => i.package_id === pkg);
      // Cancelled here and still in Stripe (the last item, ending with the subscription): stays cancelled.
      await upsertItem(
        db,
        { organizationId: orgId },
        {
          package_id: pkg,
          quantity: item.quantity ?? 1,
          stripe_item_id: item.id,
          cancelled: sub.cancel_at_period_end || ((local?.cancelled ?? false) && sub.cancel_at_period_end),
        },
      );
    }
    const paidUntil = end ? new Date(end * 1000) : null;
    // Items gone from Stripe: kept (cancelled) until the paid period ends, removed after.
    const gone = existing.filter((i) => !seen.has(i.package_id));
    await deleteItems(
      db,
      { organizationId: orgId },
      gone.filter((i) => !i.cancelled || !paidUntil || paidUntil <= now).map((i) => i.package_id),
    );
  }
  await recomputeFeatures(db, { organizationId: orgId }, now);
}
