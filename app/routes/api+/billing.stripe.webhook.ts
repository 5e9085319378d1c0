import { json, type ActionFunctionArgs } from "@remix-run/node";
import { handleStripeWebhook } from "~/services/billing/stripe.server";
import { methodNotAllowed } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

/**
 * POST /api/billing/stripe/webhook: Stripe's signed events (checkout, subscription, invoice).
 * The signature is verified with STRIPE_WEBHOOK_SECRET; each event id is applied once.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { STRIPE_WEBHOOK_SECRET, STRIPE_SECRET_KEY } = env();
  if (!STRIPE_WEBHOOK_SECRET) return json({ error: "webhooks_not_configured" }, { status: 404 });
  return handleStripeWebhook(db(), request, { webhookSecret: STRIPE_WEBHOOK_SECRET, secretKey: STRIPE_SECRET_KEY });
}

export async function loader() {
  return methodNotAllowed();
}
