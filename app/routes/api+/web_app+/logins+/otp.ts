import { attemptLogin } from "~/models/login.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { clientIp } from "~/utils/load-context";
import { loginAnswer, loginErrorAnswer } from "~/utils/login-api.server";
import { OtpLoginApiSchema } from "~/utils/schemas/accounts";
import type { ActionFunctionArgs } from "@remix-run/node";

/** POST /api/web_app/logins/otp: credentials plus otp_code (a TOTP or a backup code). Wrong code: 401 INVALID_OTP_CODE. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { credentials, otp_code } = await parseBody(request, OtpLoginApiSchema);
  try {
    return await loginAnswer(
      request,
      clientIp(context),
      await attemptLogin(db(), { ...credentials, otpCode: otp_code }),
    );
  } catch (error) {
    return loginErrorAnswer(request, error);
  }
}

export function loader() {
  return methodNotAllowed();
}
