import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { listDeviceSeats } from "~/models/billing.server";
import { addSubscriptionItem, billingState, updateSubscriptionItem } from "~/services/billing/actions.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { AddItemSchema, UpdateItemSchema } from "~/utils/schemas/billing";

/**
 * GET /api/web_app/subscription/items: the subscription info, its items and the device seats per
 * package, for admins (docs/decisions/011-viewer-billing-and-exports.md). POST {package_id, quantity?} adds an item to a live subscription (admins); PATCH
 * {package_id, quantity} changes a quantity (admins).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const state = await billingState(db(), ctx);
  return json({
    subscription_info: state.info,
    items: state.items,
    packages: await listDeviceSeats(db(), ctx),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method === "POST") {
    requireOrgAdmin(ctx);
    const input = await parseBody(request, AddItemSchema);
    const result = await withAppErrors(() => addSubscriptionItem(db(), ctx, input));
    return json(result, { status: 201 });
  }
  if (request.method === "PATCH") {
    requireOrgAdmin(ctx);
    const input = await parseBody(request, UpdateItemSchema);
    return json(await withAppErrors(() => updateSubscriptionItem(db(), ctx, input)));
  }
  return methodNotAllowed();
}
