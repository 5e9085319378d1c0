import { json, type ActionFunctionArgs } from "@remix-run/node";
import { changeOwnPassword, WrongCurrentPasswordError } from "~/models/password-change.server";
import { PasswordReusedError } from "~/models/password.server";
import { getOrganizationUser, removeUser, renameUser, serializeAdminUser } from "~/models/user-admin.server";
import { fieldErrors, methodNotAllowed, notFound, parseId, readJson } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { forbidden } from "~/utils/errors";
import { errorAnswer } from "~/utils/login-api.server";
import { UserPatchSchema } from "~/utils/schemas/admin";
import { currentSessionToken } from "~/utils/session.server";

/**
 * PATCH /api/web_app/users/{id}, on one's own id only: user{name, current_password, password,
 * password_confirmation, password_expiry} (another member's profile is theirs: 403).
 * DELETE /api/web_app/users/{id}: admins remove another user from the organisation.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const self = id === ctx.userId;
  if (request.method === "DELETE") {
    requireOrgAdmin(ctx);
    if (self) forbidden();
    if (!(await removeUser(db(), ctx, id))) notFound();
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  if (!self) requireOrgAdmin(ctx);
  if (!(await getOrganizationUser(db(), ctx, id))) notFound();
  const parsed = UserPatchSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const rule = (errors["user.password"] ?? []).some((m) => m.startsWith("accounts:password.rule"));
    return errorAnswer(request, rule ? "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" : "validation_failed", 422, { errors });
  }
  const { name, current_password, password, password_expiry } = parsed.data.user;
  // Name and password belong to the person, across organisations: admins change only roles.
  if (!self && (name !== undefined || password !== undefined || password_expiry !== undefined)) {
    forbidden();
  }
  try {
    if (self)
      await changeOwnPassword(
        db(),
        id,
        { current_password, password, password_expiry },
        await currentSessionToken(request),
      );
  } catch (error) {
    if (error instanceof WrongCurrentPasswordError) return errorAnswer(request, "INVALID_CURRENT_PASSWORD", 422);
    if (error instanceof PasswordReusedError) return errorAnswer(request, "PASSWORD_ALREADY_USED", 422);
    throw error;
  }
  if (name !== undefined) await renameUser(db(), ctx, id, name);
  return json(serializeAdminUser((await getOrganizationUser(db(), ctx, id))!));
}

export function loader() {
  return methodNotAllowed();
}
