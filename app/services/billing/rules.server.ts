import { isPlanId, PACKAGES, TRIAL_MAX_SEATS, TRIAL_PLAN_IDS, type PackageId } from "~/domain/billing";
import { hasLiveSubscription, type BillingAccount, type SubscriptionItemRow } from "~/models/billing.server";
import { AppError } from "~/utils/errors";
import type { AddItemInput, CheckoutSubscriptionInput, UpdateItemInput } from "~/utils/schemas/billing";

// The spec's purchase rules, checked the same way for both providers before anything is asked of
// them. A broken rule is a BillingError: 422 with a field error holding a translation key (or
// 404 for an item that does not exist).

export class BillingError extends AppError {
  constructor(
    public field: string,
    public key: string,
    status: 404 | 422 = 422,
  ) {
    super(status, status === 404 ? "not_found" : "validation_failed", status === 404 ? undefined : { [field]: [key] });
  }
}

function selfService(packageId: PackageId, field: string) {
  if (PACKAGES[packageId].monthly_price === null) throw new BillingError(field, "billing:errors.contactSales");
}

export function checkCheckout(account: BillingAccount | undefined, input: CheckoutSubscriptionInput) {
  if (hasLiveSubscription(account)) throw new BillingError("_", "billing:errors.alreadySubscribed");
  const seen = new Set<string>();
  input.line_items.forEach((li, i) => {
    if (seen.has(li.package_id)) throw new BillingError(`line_items.${i}.package_id`, "billing:errors.duplicateItem");
    seen.add(li.package_id);
    selfService(li.package_id as PackageId, `line_items.${i}.package_id`);
    if (!PACKAGES[li.package_id as PackageId].perSeat && li.quantity !== 1)
      throw new BillingError(`line_items.${i}.quantity`, "billing:errors.bundleQuantity");
  });
  if (input.trial) {
    if (account?.trial_used) throw new BillingError("trial", "billing:errors.trialUsed");
    if (input.line_items.some((li) => !(TRIAL_PLAN_IDS as readonly string[]).includes(li.package_id))) {
      throw new BillingError("line_items", "billing:errors.trialPlansOnly");
    }
    const seats = input.line_items.reduce((s, li) => s + li.quantity, 0);
    if (seats > TRIAL_MAX_SEATS) throw new BillingError("line_items", "billing:errors.trialSeats");
  }
}

function requireLive(account: BillingAccount | undefined) {
  if (!hasLiveSubscription(account)) throw new BillingError("_", "billing:errors.noSubscription");
}

function trialSeatsAfter(items: SubscriptionItemRow[], packageId: string, quantity: number) {
  return items
    .filter((i) => isPlanId(i.package_id) && !i.cancelled && i.package_id !== packageId)
    .reduce((s, i) => s + i.quantity, isPlanId(packageId) ? quantity : 0);
}

export function checkAdd(account: BillingAccount | undefined, items: SubscriptionItemRow[], input: AddItemInput) {
  requireLive(account);
  const packageId = input.package_id as PackageId;
  selfService(packageId, "package_id");
  const existing = items.find((i) => i.package_id === packageId);
  if (existing && !existing.cancelled) throw new BillingError("package_id", "billing:errors.alreadyPurchased");
  if (!PACKAGES[packageId].perSeat && input.quantity !== 1)
    throw new BillingError("quantity", "billing:errors.bundleQuantity");
  if (account!.status === "trialing") {
    if (packageId === "duplicate_storage_measurements_bundle")
      throw new BillingError("package_id", "billing:errors.duplicateStorageTrial");
    if (trialSeatsAfter(items, packageId, input.quantity) > TRIAL_MAX_SEATS)
      throw new BillingError("quantity", "billing:errors.trialSeats");
  }
}

export function checkUpdate(account: BillingAccount | undefined, items: SubscriptionItemRow[], input: UpdateItemInput) {
  requireLive(account);
  const item = items.find((i) => i.package_id === input.package_id);
  if (!item || item.cancelled) throw new BillingError("package_id", "billing:errors.notPurchased");
  if (!PACKAGES[input.package_id as PackageId].perSeat && input.quantity !== 1)
    throw new BillingError("quantity", "billing:errors.bundleQuantity");
  if (account!.status === "trialing" && trialSeatsAfter(items, input.package_id, input.quantity) > TRIAL_MAX_SEATS) {
    throw new BillingError("quantity", "billing:errors.trialSeats");
  }
  return item;
}

export function checkCancel(account: BillingAccount | undefined, items: SubscriptionItemRow[], packageId: string) {
  const item = items.find((i) => i.package_id === packageId);
  if (!item) throw new BillingError("package_id", "billing:errors.notPurchased", 404);
  requireLive(account);
  if (item.cancelled) throw new BillingError("package_id", "billing:errors.alreadyCancelled");
  return item;
}
