import { createCookie, redirect } from "@remix-run/node";
import { findSession, revokeSession } from "~/models/session.server";
import { db } from "./db.server";
import { env } from "./env.server";

// The screens' cookie holds only the session token; the row in MySQL decides whether it is valid.
export const sessionCookie = createCookie("__session", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  // Secure whenever the app is served over https (APP_URL), so a plain-http local demo still signs in.
  get secure() {
    return env().APP_URL.startsWith("https://");
  },
  get secrets() {
    return [env().SESSION_SECRET];
  },
});

export async function getSessionToken(request: Request): Promise<string | null> {
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

/** The token of the session making this request: the bearer token of an API client, or the cookie's. */
export async function currentSessionToken(request: Request): Promise<string | null> {
  const bearer = request.headers.get("Authorization")?.match(/^Bearer\s+(\S+)$/i);
  return bearer ? bearer[1] : getSessionToken(request);
}

export function commitSessionCookie(token: string, expiresAt: Date) {
  return sessionCookie.serialize(token, { expires: expiresAt });
}

export function clearSessionCookie() {
  return sessionCookie.serialize("", { maxAge: 0 });
}

/** Signs out: the row is revoked, the cookie cleared. */
export async function logout(request: Request, redirectTo = "/login") {
  const token = await getSessionToken(request);
  if (token) await revokeSession(db(), token);
  throw redirect(redirectTo, { headers: { "Set-Cookie": await clearSessionCookie() } });
}

// Cached per request: the language detector and the loaders ask for the same user.
const userIdCache = new WeakMap<Request, Promise<number | null>>();

export function getSignedInUserId(request: Request): Promise<number | null> {
  let pending = userIdCache.get(request);
  if (!pending) {
    pending = (async () => {
      const lookup = await findSession(db(), await getSessionToken(request));
      return lookup.status === "valid" ? lookup.userId : null;
    })();
    userIdCache.set(request, pending);
  }
  return pending;
}

export async function getLocaleOfSignedInUser(request: Request): Promise<string | null> {
  const userId = await getSignedInUserId(request);
  if (!userId) return null;
  const row = await db().selectFrom("users").select("locale").where("id", "=", userId).executeTakeFirst();
  return row?.locale ?? null;
}
