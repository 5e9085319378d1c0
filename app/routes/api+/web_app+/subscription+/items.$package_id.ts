import { json, type ActionFunctionArgs } from "@remix-run/node";
import { isPackageId } from "~/domain/billing";
import { cancelSubscriptionItem } from "~/services/billing/actions.server";
import { methodNotAllowed, notFound } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";

/** DELETE /api/web_app/subscription/items/{package_id}: marks the item cancelled until the period ends (admins). */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "DELETE") return methodNotAllowed();
  if (!isPackageId(params.package_id)) notFound();
  requireOrgAdmin(ctx);
  const item = await withAppErrors(() => cancelSubscriptionItem(db(), ctx, params.package_id!));
  return json({ item });
}

export async function loader() {
  return methodNotAllowed();
}
