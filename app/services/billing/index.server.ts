import type { DB } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { createLocalProvider } from "./local.server";
import { createStripeProvider } from "./stripe.server";
import type { BillingProvider } from "./provider.server";

export type { BillingCustomer, BillingProvider } from "./provider.server";
export { BillingError } from "./rules.server";

/** Stripe when STRIPE_SECRET_KEY is set; otherwise the local provider in MySQL. */
export function billingProvider(db: DB): BillingProvider {
  const e = env();
  if (e.STRIPE_SECRET_KEY) return createStripeProvider(db, { secretKey: e.STRIPE_SECRET_KEY, appUrl: e.APP_URL });
  return createLocalProvider(db, { appUrl: e.APP_URL });
}
