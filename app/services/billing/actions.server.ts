import {
  countOpenInvoices,
  getBillingAccount,
  itemView,
  listItems,
  listInvoices,
  pictureCreditStatus,
  subscriptionInfoView,
} from "~/models/billing.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import type { AddItemInput, CheckoutSubscriptionInput, UpdateItemInput } from "~/utils/schemas/billing";
import { billingProvider } from "./index.server";
import { settleLocalPeriod } from "./local.server";
import { checkAdd, checkCancel, checkCheckout, checkUpdate } from "./rules.server";

// The billing calls as one set of functions, shared by the API routes and the /billing forms:
// rules first (BillingError), then the provider.

type Ctx = Pick<AuthContext, "organizationId" | "organization" | "user">;

export async function billingState(db: DB, ctx: Pick<AuthContext, "organizationId">) {
  await settleLocalPeriod(db, ctx.organizationId);
  const [account, items, openInvoices, credits] = await Promise.all([
    getBillingAccount(db, ctx),
    listItems(db, ctx),
    countOpenInvoices(db, ctx),
    pictureCreditStatus(db, ctx),
  ]);
  return { info: subscriptionInfoView(account), items: items.map(itemView), openInvoices, credits };
}

export async function checkoutSubscription(db: DB, ctx: Ctx, input: CheckoutSubscriptionInput) {
  checkCheckout(await getBillingAccount(db, ctx), input);
  return billingProvider(db).checkoutSubscription(ctx, input);
}

export async function checkoutPicturePackage(db: DB, ctx: Ctx, packageId: string) {
  return billingProvider(db).checkoutPicturePackage(ctx, packageId);
}

export async function addSubscriptionItem(db: DB, ctx: Ctx, input: AddItemInput) {
  checkAdd(await getBillingAccount(db, ctx), await listItems(db, ctx), input);
  const { invoice } = await billingProvider(db).addItem(ctx, input);
  const item = (await listItems(db, ctx)).find((i) => i.package_id === input.package_id)!;
  return { item: itemView(item), invoice };
}

export async function updateSubscriptionItem(db: DB, ctx: Ctx, input: UpdateItemInput) {
  checkUpdate(await getBillingAccount(db, ctx), await listItems(db, ctx), input);
  const { invoice } = await billingProvider(db).updateItem(ctx, input);
  const item = (await listItems(db, ctx)).find((i) => i.package_id === input.package_id)!;
  return { item: itemView(item), invoice };
}

export async function previewSubscriptionItem(db: DB, ctx: Ctx, input: UpdateItemInput) {
  const account = await getBillingAccount(db, ctx);
  const items = await listItems(db, ctx);
  const existing = items.find((i) => i.package_id === input.package_id && !i.cancelled);
  if (existing) checkUpdate(account, items, input);
  else checkAdd(account, items, input);
  return billingProvider(db).preview(ctx, input);
}

export async function cancelSubscriptionItem(db: DB, ctx: Ctx, packageId: string) {
  checkCancel(await getBillingAccount(db, ctx), await listItems(db, ctx), packageId);
  await billingProvider(db).cancelItem(ctx, packageId);
  const item = (await listItems(db, ctx)).find((i) => i.package_id === packageId);
  return item ? itemView(item) : null;
}

export async function customerPortal(db: DB, ctx: Ctx) {
  return billingProvider(db).customerPortal(ctx);
}

export { listInvoices };

/** What the shell shows: status badge, counter, banners, upgrade button. */
export async function shellBilling(db: DB, ctx: Pick<AuthContext, "organizationId">) {
  const state = await billingState(db, ctx);
  const live = state.info.status === "active" || state.info.status === "trialing";
  const activePlans = live
    ? state.items.filter((i) => i.purchase_type === "plan" && (!i.cancelled || state.info.paid_until))
    : [];
  return {
    status: state.info.status,
    trialEnd: state.info.trial_end,
    cancelAtPeriodEnd: state.info.cancel_at_period_end,
    paidUntil: state.info.paid_until,
    remaining: state.credits.remaining,
    lastDayWarning: state.credits.lastDayWarning,
    openInvoices: state.openInvoices,
    hasProOrEnterprise: activePlans.some(
      (i) => i.package_id === "pro_subscription" || i.package_id === "enterprise_subscription",
    ),
    hasPaidPlan: activePlans.length > 0,
  };
}
export type ShellBilling = Awaited<ReturnType<typeof shellBilling>>;
