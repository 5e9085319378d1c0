import { json, type ActionFunctionArgs } from "@remix-run/node";
import { checkoutSubscription } from "~/services/billing/actions.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { CheckoutSubscriptionSchema } from "~/utils/schemas/billing";

/** POST /api/web_app/checkout/subscription {period, trial, line_items}: {redirect_url} (admins, no live subscription). */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  requireOrgAdmin(ctx);
  const input = await parseBody(request, CheckoutSubscriptionSchema);
  return json(await withAppErrors(() => checkoutSubscription(db(), ctx, input)));
}

export async function loader() {
  return methodNotAllowed();
}
