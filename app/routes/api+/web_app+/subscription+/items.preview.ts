import { json, type ActionFunctionArgs } from "@remix-run/node";
import { previewSubscriptionItem } from "~/services/billing/actions.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { UpdateItemSchema } from "~/utils/schemas/billing";

/** POST /api/web_app/subscription/items/preview {package_id, quantity}: {amount_due} in EUR (admins). */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  requireOrgAdmin(ctx);
  const input = await parseBody(request, UpdateItemSchema);
  return json(await withAppErrors(() => previewSubscriptionItem(db(), ctx, input)));
}

export async function loader() {
  return methodNotAllowed();
}
