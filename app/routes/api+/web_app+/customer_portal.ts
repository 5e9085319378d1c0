import { json, type ActionFunctionArgs } from "@remix-run/node";
import { customerPortal } from "~/services/billing/actions.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** POST /api/web_app/customer_portal: {portal_url} (admins). */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  requireOrgAdmin(ctx);
  return json(await customerPortal(db(), ctx));
}

export async function loader() {
  return methodNotAllowed();
}
