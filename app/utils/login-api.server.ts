import { json } from "@remix-run/node";
import { LoginError, type LoginOutcome } from "~/models/login.server";
import { createSession } from "~/models/session.server";
import { db } from "./db.server";
import { env } from "./env.server";
import { getLanguage, i18nServer } from "./i18n.server";

// The answers of POST /logins and /logins/otp: 200 with a token, 202 when the one-time code is
// needed, 400 "password expired", and the spec's error codes.
const STATUS = {
  INVALID_EMAIL_OR_PASSWORD: 401,
  ACCOUNT_LOCKED: 403,
  CONTACT_SUPPORT: 403,
  INVALID_OTP_CODE: 401,
} as const;

async function message(request: Request, key: string) {
  const t = await i18nServer.getFixedT(await getLanguage(request), ["auth", "accounts"]);
  return t(key);
}

export async function loginAnswer(request: Request, ip: string | null, outcome: LoginOutcome) {
  if (outcome.status === "otp_required") {
    return json(
      { error: "OTP_REQUIRED", message: await message(request, "accounts:login.otpRequired") },
      { status: 202 },
    );
  }
  if (outcome.status === "password_expired") {
    return json({ error: "PASSWORD_EXPIRED", message: "password expired" }, { status: 400 });
  }
  const session = await createSession(db(), {
    userId: outcome.user.id,
    kind: "api",
    ttlSeconds: env().SESSION_TTL_SECONDS,
    ip,
    userAgent: request.headers.get("user-agent"),
  });
  return json({
    access_token: session.token,
    // Seconds, as the spec's clients compute expiry as (created_at + expires_in) * 1000.
    created_at: Math.floor(session.createdAt.getTime() / 1000),
    expires_in: session.expiresIn,
  });
}

export async function loginErrorAnswer(request: Request, error: unknown) {
  if (!(error instanceof LoginError)) throw error;
  const key = error.code === "INVALID_OTP_CODE" ? "accounts:errors.INVALID_OTP_CODE" : `auth:errors.${error.code}`;
  return json({ error: error.code, message: await message(request, key) }, { status: STATUS[error.code] });
}

/** {error: CODE, message} in the reader's language (accounts:errors.CODE). */
export async function errorAnswer(request: Request, code: string, status: number, extra: Record<string, unknown> = {}) {
  return json({ error: code, message: await message(request, `accounts:errors.${code}`), ...extra }, { status });
}
