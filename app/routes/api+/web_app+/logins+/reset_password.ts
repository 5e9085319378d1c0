import { json, type ActionFunctionArgs } from "@remix-run/node";
import { InvalidTokenError, resetPasswordWithToken } from "~/models/account.server";
import { LoginError } from "~/models/login.server";
import { changeExpiredPassword } from "~/models/password-change.server";
import { PasswordReusedError } from "~/models/password.server";
import { fieldErrors, methodNotAllowed, readJson } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { errorAnswer, loginErrorAnswer } from "~/utils/login-api.server";
import { ChangeExpiredPasswordSchema, ResetPasswordByTokenSchema } from "~/utils/schemas/accounts";

/**
 * POST /api/web_app/logins/reset_password: {token, new_password, password_confirmation} (the
 * e-mailed link) or {email, current_password, new_password, password_confirmation} (an expired
 * password). Errors: 400 INVALID_PASSWORD_RESET_TOKEN, 422 PASSWORD_ALREADY_USED,
 * 422 PASSWORD_DOES_NOT_MEET_REQUIREMENTS (with field errors), login codes for a wrong current password.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const body = (await readJson(request)) as Record<string, unknown>;
  const byToken = body && typeof body === "object" && "token" in body;
  const parsed = (byToken ? ResetPasswordByTokenSchema : ChangeExpiredPasswordSchema).safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const passwordRule = Object.entries(errors).some(
      ([k, msgs]) => k === "new_password" && msgs.some((m) => m.startsWith("accounts:password.rule")),
    );
    return errorAnswer(request, passwordRule ? "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" : "validation_failed", 422, {
      errors,
    });
  }
  try {
    if ("token" in parsed.data) await resetPasswordWithToken(db(), parsed.data.token, parsed.data.new_password);
    else await changeExpiredPassword(db(), parsed.data);
    return json({ message: "ok" });
  } catch (error) {
    if (error instanceof InvalidTokenError) return errorAnswer(request, "INVALID_PASSWORD_RESET_TOKEN", 400);
    if (error instanceof PasswordReusedError) return errorAnswer(request, "PASSWORD_ALREADY_USED", 422);
    if (error instanceof LoginError) return loginErrorAnswer(request, error);
    throw error;
  }
}

export function loader() {
  return methodNotAllowed();
}
