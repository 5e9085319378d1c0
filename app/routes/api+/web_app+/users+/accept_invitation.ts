import { json, type ActionFunctionArgs } from "@remix-run/node";
import { acceptInvitation, InvalidTokenError } from "~/models/account.server";
import { PasswordReusedError } from "~/models/password.server";
import { fieldErrors, methodNotAllowed, readJson } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { errorAnswer } from "~/utils/login-api.server";
import { AcceptInvitationSchema } from "~/utils/schemas/accounts";

/** POST /api/web_app/users/accept_invitation {invitation_token, password, password_confirmation}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const parsed = AcceptInvitationSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const rule = (errors.password ?? []).some((m) => m.startsWith("accounts:password.rule"));
    return errorAnswer(request, rule ? "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" : "validation_failed", 422, { errors });
  }
  try {
    await acceptInvitation(db(), parsed.data.invitation_token, parsed.data.password);
    return json({ message: "ok" });
  } catch (error) {
    if (error instanceof InvalidTokenError) return errorAnswer(request, "INVALID_PASSWORD_RESET_TOKEN", 400);
    if (error instanceof PasswordReusedError) return errorAnswer(request, "PASSWORD_ALREADY_USED", 422);
    throw error;
  }
}

export function loader() {
  return methodNotAllowed();
}
