import { json, type ActionFunctionArgs } from "@remix-run/node";
import { inviteUser, UserExistsError } from "~/models/user-admin.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorAnswer } from "~/utils/login-api.server";
import { InviteSchema } from "~/utils/schemas/admin";

/** POST /api/web_app/users/invite_user {invite:{email}}: 422 USER_EXISTS when the address is already a member. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const { invite } = await parseBody(request, InviteSchema);
  try {
    const result = await inviteUser(db(), { ...ctx, organizationName: ctx.organization.name }, invite.email);
    return json({ message: "Invitation sent", user_id: result.userId }, { status: 201 });
  } catch (error) {
    if (error instanceof UserExistsError) return errorAnswer(request, "USER_EXISTS", 422);
    throw error;
  }
}

export function loader() {
  return methodNotAllowed();
}
