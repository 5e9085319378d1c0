import { json, type ActionFunctionArgs } from "@remix-run/node";
import { checkoutPicturePackage } from "~/services/billing/actions.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { PicturePackageSchema } from "~/utils/schemas/billing";

/** POST /api/web_app/checkout/picture_package {package_id: PLAN_10..PLAN_200}: {redirect_url} (admins). */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  requireOrgAdmin(ctx);
  const input = await parseBody(request, PicturePackageSchema);
  return json(await checkoutPicturePackage(db(), ctx, input.package_id));
}

export async function loader() {
  return methodNotAllowed();
}
