import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listOrganizationUsers, serializeAdminUser } from "~/models/user-admin.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /api/web_app/users[?q=email part]: the organisation's users with their roles here (admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const q = new URL(request.url).searchParams.get("q") ?? undefined;
  return json((await listOrganizationUsers(db(), ctx, { q })).map(serializeAdminUser));
}

export function action() {
  return methodNotAllowed();
}
