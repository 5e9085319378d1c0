import { json, type ActionFunctionArgs } from "@remix-run/node";
import { LoginError, verifyCredentials } from "~/models/login.server";
import { createSession } from "~/models/session.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { getLanguage, i18nServer } from "~/utils/i18n.server";
import { LoginApiSchema } from "~/utils/schemas/auth";

const STATUS = { INVALID_EMAIL_OR_PASSWORD: 401, ACCOUNT_LOCKED: 403, CONTACT_SUPPORT: 403 } as const;

/** POST /api/web_app/logins: credentials{email,password} -> {access_token, created_at, expires_in}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { credentials } = await parseBody(request, LoginApiSchema);
  try {
    const user = await verifyCredentials(db(), credentials.email, credentials.password);
    const session = await createSession(db(), {
      userId: user.id,
      kind: "api",
      ttlSeconds: env().SESSION_TTL_SECONDS,
      ip: request.headers.get("x-forwarded-for"),
      userAgent: request.headers.get("user-agent"),
    });
    return json({
      access_token: session.token,
      // Seconds, as the spec's clients compute expiry as (created_at + expires_in) * 1000.
      created_at: Math.floor(session.createdAt.getTime() / 1000),
      expires_in: session.expiresIn,
    });
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    const t = await i18nServer.getFixedT(await getLanguage(request), "auth");
    return json({ error: error.code, message: t(`errors.${error.code}`) }, { status: STATUS[error.code] });
  }
}

export function loader() {
  return methodNotAllowed();
}
