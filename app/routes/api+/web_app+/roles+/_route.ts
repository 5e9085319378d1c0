import { json, type ActionFunctionArgs } from "@remix-run/node";
import { assignRole, RoleRuleError } from "~/models/user-admin.server";
import { methodNotAllowed, notFound, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { forbidden } from "~/utils/errors";
import { RoleCreateSchema } from "~/utils/schemas/admin";

/** POST /api/web_app/roles: role{name, user_id} plus one of organization_id, storage_id, storage_group_id. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const input = await parseBody(request, RoleCreateSchema);
  try {
    const role = await assignRole(db(), ctx, input);
    return json(
      { id: role.id, name: role.name, assignable_type: role.assignable_type, assignable_id: role.assignable_id },
      { status: 201 },
    );
  } catch (error) {
    if (!(error instanceof RoleRuleError)) throw error;
    if (error.code === "NOT_FOUND") notFound();
    forbidden();
  }
}

export function loader() {
  return methodNotAllowed();
}
