import { removeRole, RoleRuleError } from "~/models/user-admin.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { forbidden } from "~/utils/errors";
import type { ActionFunctionArgs } from "@remix-run/node";

/** DELETE /api/web_app/roles/{id}: admins remove another user's role. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  try {
    await removeRole(db(), ctx, parseId(params.id));
  } catch (error) {
    if (!(error instanceof RoleRuleError)) throw error;
    if (error.code === "NOT_FOUND") notFound();
    forbidden();
  }
  return new Response(null, { status: 204 });
}

export function loader() {
  return methodNotAllowed();
}
