import type { InvoiceLine } from "#db/schema";
import {
  cents,
  isPicturePlanId,
  PACKAGES,
  PICTURE_PLANS,
  proratedCents,
  remainingShare,
  TRIAL_MONTHS,
  unitPrice,
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
} from "~/models/billing.server";
import type { DB } from "~/utils/db.server";
import type { CheckoutSubscriptionInput } from "~/utils/schemas/billing";
import { randomToken } from "~/utils/token.server";
import type { BillingCustomer, BillingProvider } from "./provider.server";

// The local provider: no payment service. Checkout "redirects" to /billing/checkout/{token}, a
// confirmation page of our own; confirming there is the payment. Items added to a live
// subscription raise an OPEN invoice for the prorated amount (paid with its pay button);
// cancelled items keep their features until paid_until. Plans, items and invoices are the same
// tables the Stripe webhooks fill.

function addMonths(date: Date, months: number) {
  const d = new Date(date);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

export function createLocalProvider(db: DB, opts: { appUrl: string }): BillingProvider {
  const url = (path: string) => new URL(path, opts.appUrl).toString();

  async function startCheckout(organizationId: number, kind: "subscription" | "picture_package", payload: unknown) {
    const token = randomToken(24).slice(0, 32);
    await db
      .insertInto("local_checkouts")
      .values({ organization_id: organizationId, token, kind, payload: JSON.stringify(payload) })
      .execute();
    return { redirect_url: url(`/billing/checkout/${token}`) };
  }

  async function raiseInvoice(organizationId: number, lines: InvoiceLine[]) {
    if (lines.every((l) => l.amount_cents === 0)) return null;
    return createInvoice(db, { organizationId }, { lines, status: "open" });
  }

  return {
    name: "local",
    checkoutSubscription: (c, input) => startCheckout(c.organizationId, "subscription", input),
    checkoutPicturePackage: (c, packageId) =>
      startCheckout(c.organizationId, "picture_package", { package_id: packageId }),

    async addItem(c, input) {
      const account = (await getBillingAccount(db, { organizationId: c.organizationId }))!;
      const packageId = input.package_id as PackageId;
      await upsertItem(db, { organizationId: c.organizationId }, { package_id: packageId, quantity: input.quantity });
      await updateBillingAccount(db, { organizationId: c.organizationId }, { cancel_at_period_end: false });
      await recomputeFeatures(db, { organizationId: c.organizationId });
      if (account.status === "trialing") return { invoice: null };
      const amount = proratedCents(packageId, account.interval ?? "month", input.quantity, remainingShare(account));
      return {
        invoice: await raiseInvoice(c.organizationId, [
          { description: packageId, quantity: input.quantity, amount_cents: amount },
        ]),
      };
    },

    async updateItem(c, input) {
      const account = (await getBillingAccount(db, { organizationId: c.organizationId }))!;
      const item = (await listItems(db, { organizationId: c.organizationId })).find(
        (i) => i.package_id === input.package_id,
      )!;
      await setItemQuantity(db, { organizationId: c.organizationId }, input.package_id, input.quantity);
      await recomputeFeatures(db, { organizationId: c.organizationId });
      if (account.status === "trialing" || input.quantity <= item.quantity) return { invoice: null };
      const delta = input.quantity - item.quantity;
      const amount = proratedCents(
        input.package_id as PackageId,
        account.interval ?? "month",
        delta,
        remainingShare(account),
      );
      return {
        invoice: await raiseInvoice(c.organizationId, [
          { description: input.package_id, quantity: delta, amount_cents: amount },
        ]),
      };
    },

    async cancelItem(c, packageId) {
      await markItemCancelled(db, { organizationId: c.organizationId }, packageId);
      const items = await listItems(db, { organizationId: c.organizationId });
      if (items.every((i) => i.cancelled))
        await updateBillingAccount(db, { organizationId: c.organizationId }, { cancel_at_period_end: true });
      await recomputeFeatures(db, { organizationId: c.organizationId });
    },

    async preview(c, input) {
      const account = await getBillingAccount(db, { organizationId: c.organizationId });
      if (!account || account.status === "trialing") return { amount_due: 0 };
      const item = (await listItems(db, { organizationId: c.organizationId })).find(
        (i) => i.package_id === input.package_id && !i.cancelled,
      );
      const delta = input.quantity - (item?.quantity ?? 0);
      return {
        amount_due:
          proratedCents(input.package_id as PackageId, account.interval ?? "month", delta, remainingShare(account)) /
          100,
      };
    },

    async customerPortal() {
      // No payment service to manage cards with: the portal is our own invoices tab.
      return { portal_url: url("/billing/invoices") };
    },
  };
}

export class CheckoutNotFound extends Error {}

export async function getLocalCheckout(db: DB, ctx: { organizationId: number }, token: string) {
  return db
    .selectFrom("local_checkouts")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("token", "=", token)
    .executeTakeFirst();
}

/** The confirmation page's "pay": applies the checkout once (a second confirm changes nothing). */
export async function completeLocalCheckout(
  db: DB,
  customer: Pick<BillingCustomer, "organizationId">,
  token: string,
  now = new Date(),
) {
  const orgId = customer.organizationId;
  const checkout = await getLocalCheckout(db, customer, token);
  if (!checkout) throw new CheckoutNotFound(token);
  const claimed = await db
    .updateTable("local_checkouts")
    .set({ completed_at: now })
    .where("id", "=", checkout.id)
    .where("completed_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return { kind: checkout.kind, alreadyDone: true };
  await ensureBillingAccount(db, { organizationId: orgId });

  if (checkout.kind === "picture_package") {
    const { package_id } = checkout.payload as { package_id: string };
    if (!isPicturePlanId(package_id)) throw new CheckoutNotFound(token);
    const plan = PICTURE_PLANS[package_id];
    await addPictureCredits(db, { organizationId: orgId }, plan.pictures, package_id);
    await createInvoice(
      db,
      { organizationId: orgId },
      {
        lines: [{ description: package_id, quantity: 1, amount_cents: cents(plan.price) }],
        status: "paid",
      },
    );
    return { kind: checkout.kind, alreadyDone: false };
  }

  const input = checkout.payload as CheckoutSubscriptionInput;
  const interval = input.period === 12 ? "year" : "month";
  const paidUntil = addMonths(now, input.trial ? TRIAL_MONTHS : input.period);
  await deleteItems(
    db,
    { organizationId: orgId },
    (await listItems(db, { organizationId: orgId })).map((i) => i.package_id),
  );
  for (const li of input.line_items)
    await upsertItem(db, { organizationId: orgId }, { package_id: li.package_id as PackageId, quantity: li.quantity });
  await updateBillingAccount(
    db,
    { organizationId: orgId },
    {
      provider: "local",
      status: input.trial ? "trialing" : "active",
      interval,
      paid_until: paidUntil,
      trial_end: input.trial ? paidUntil : null,
      cancel_at_period_end: false,
      ...(input.trial ? { trial_used: true } : {}),
    },
  );
  if (!input.trial) {
    const lines = input.line_items.map((li) => ({
      description: li.package_id,
      quantity: li.quantity,
      amount_cents: cents((unitPrice(li.package_id as PackageId, interval) ?? 0) * li.quantity),
    }));
    await createInvoice(db, { organizationId: orgId }, { lines, status: "paid" });
  }
  await recomputeFeatures(db, { organizationId: orgId });
  return { kind: checkout.kind, alreadyDone: false };
}

/**
 * The local provider's clock: when the paid period has ended, cancelled items go, a trial or a
 * subscription set to cancel ends (status canceled), and an active one renews with an open
 * invoice. Run when billing state is read; Stripe subscriptions follow their webhooks instead.
 */
export async function settleLocalPeriod(db: DB, organizationId: number, now = new Date()) {
  const account = await getBillingAccount(db, { organizationId });
  if (!account || account.provider !== "local" || !account.paid_until || account.paid_until > now) return;
  if (account.status !== "active" && account.status !== "trialing") return;
  const items = await listItems(db, { organizationId });
  await deleteItems(
    db,
    { organizationId },
    items.filter((i) => i.cancelled).map((i) => i.package_id),
  );
  const remaining = items.filter((i) => !i.cancelled);
  if (account.status === "trialing" || account.cancel_at_period_end || remaining.length === 0) {
    await updateBillingAccount(db, { organizationId }, { status: "canceled", cancel_at_period_end: false });
  } else {
    const interval = account.interval ?? "month";
    await updateBillingAccount(
      db,
      { organizationId },
      {
        paid_until: addMonths(account.paid_until, interval === "year" ? 12 : 1),
      },
    );
    await createInvoice(
      db,
      { organizationId },
      {
        status: "open",
        lines: remaining.map((i) => ({
          description: i.package_id,
          quantity: i.quantity,
          amount_cents: cents(
            (PACKAGES[i.package_id as PackageId] ? (unitPrice(i.package_id as PackageId, interval) ?? 0) : 0) *
              i.quantity,
          ),
        })),
      },
    );
  }
  await recomputeFeatures(db, { organizationId }, now);
}
