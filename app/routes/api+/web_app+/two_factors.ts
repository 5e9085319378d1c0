import { json, type ActionFunctionArgs } from "@remix-run/node";
import { confirmTwoFactor, disableTwoFactor, provesOwner, startTwoFactorSetup } from "~/models/two-factor.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorAnswer } from "~/utils/login-api.server";
import { TwoFactorSchema } from "~/utils/schemas/accounts";

/**
 * POST /api/web_app/two_factors: without otp_code starts a set-up, 202 {url} (two-factor stays
 * off); with otp_code (from the app, of that url's secret) switches it on, 201 {url, backup_codes}.
 * Replacing an enabled one, and DELETE, need {password} or a current {otp_code}.
 */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method !== "POST" && request.method !== "DELETE") methodNotAllowed();
  const body = await parseBody(request, TwoFactorSchema);
  const user = ctx.user;
  if (request.method === "DELETE") {
    if (!(await provesOwner(db(), user, body))) return proofNeeded(request);
    await disableTwoFactor(db(), user.id);
    return new Response(null, { status: 204 });
  }
  if (body.otp_code !== undefined) {
    const enabled = await confirmTwoFactor(db(), user, body.otp_code);
    if (enabled) return json({ url: enabled.url, backup_codes: enabled.backup_codes }, { status: 201 });
    if (!user.otp_enabled)
      return errorAnswer(request, "INVALID_OTP_CODE", 422, { errors: { otp_code: ["INVALID_OTP_CODE"] } });
  }
  if (user.otp_enabled && !(await provesOwner(db(), user, body))) return proofNeeded(request);
  const { url } = await startTwoFactorSetup(db(), user);
  return json({ url }, { status: 202 });
}

function proofNeeded(request: Request) {
  return errorAnswer(request, "INVALID_CURRENT_PASSWORD", 422, {
    errors: { password: ["accounts:twoFactor.proofRequired"] },
  });
}

export function loader() {
  return methodNotAllowed();
}
