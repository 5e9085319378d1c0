import { json, redirect } from "@remix-run/node";
import { findSignedIn, loadSignedInRows, type SignedInLookup, type SignedInRows } from "~/models/auth-context.server";
import { countDevices } from "~/models/device-admin.server";
import { isOrganizationAdmin } from "~/models/role.server";
import { db } from "./db.server";
import { forbidden } from "./errors";
import { noteOrganization } from "./request-context.server";
import { safeRedirect } from "./safe-redirect";
import { clearSessionCookie, getSessionToken } from "./session.server";
import type { AuthContext } from "./auth-context";

export class NoOrganizationError extends Error {}

/** The context of a user's rows (null: none of their organisations is current). */
function contextOf(userId: number, rows: SignedInRows): AuthContext | null {
  const { user, organizations, organization, roles } = rows;
  if (organizations.length === 0) throw new NoOrganizationError(`user ${userId} belongs to no organisation`);
  if (!organization) return null;
  noteOrganization(organization.id);
  return {
    userId,
    organizationId: organization.id,
    roles,
    features: organization.features ?? [],
    isAdmin: isOrganizationAdmin(roles, organization.id),
    user,
    organization,
    organizations,
  };
}

export async function loadAuthContext(userId: number): Promise<AuthContext | null> {
  const rows = await loadSignedInRows(db(), userId);
  return rows ? contextOf(userId, rows) : null;
}

/** A valid session's context; an account whose every role was removed may sign in but sees nothing (403). */
function signedInContext(lookup: Extract<SignedInLookup, { status: "valid" }>): AuthContext | null {
  try {
    return contextOf(lookup.userId, lookup.rows);
  } catch (error) {
    if (error instanceof NoOrganizationError) throw json({ error: "no_organization" }, { status: 403 });
    throw error;
  }
}

function safeRedirectTo(request: Request) {
  const url = new URL(request.url);
  return safeRedirect(url.pathname + url.search);
}

/** Screens: the signed-in user's context, or a redirect to /login (with the session-expired notice when it expired). */
export async function requireUser(request: Request): Promise<AuthContext> {
  const token = await getSessionToken(request);
  const lookup = await findSignedIn(db(), token);
  if (lookup.status !== "valid") {
    const params = new URLSearchParams({ redirectTo: safeRedirectTo(request) });
    if (lookup.status === "expired") params.set("expired", "1");
    throw redirect(`/login?${params}`, token ? { headers: { "Set-Cookie": await clearSessionCookie() } } : undefined);
  }
  const ctx = signedInContext(lookup);
  if (!ctx) throw redirect("/login", { headers: { "Set-Cookie": await clearSessionCookie() } });
  return ctx;
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

/**
 * /api/web_app calls: a bearer token, or the screens' cookie (SameSite=Lax keeps other sites'
 * mutations out). 401 {error: invalid_token | expired_token} otherwise.
 */
export async function requireApiUser(request: Request): Promise<AuthContext> {
  const bearer = bearerToken(request);
  const token = bearer ?? (await getSessionToken(request));
  const lookup = await findSignedIn(db(), token);
  if (lookup.status === "expired") throw json({ error: "expired_token" }, { status: 401 });
  if (lookup.status === "invalid") throw json({ error: "invalid_token" }, { status: 401 });
  const ctx = signedInContext(lookup);
  if (!ctx) throw json({ error: "invalid_token" }, { status: 401 });
  return ctx;
}

/** The one admin check, for screens and API alike: 403 {error: "forbidden"}. */
export function requireOrgAdmin(ctx: AuthContext) {
  if (!ctx.isAdmin) forbidden();
}

/**
 * The guard of every shell (`_app+`) loader and action (accounts.md "Access guard"): a signed-in
 * user whose account is verified (else /verification) and who passed device setup, or whose
 * organisation has a device (else /setup). tests/integration/app-guard.test.ts holds every
 * `_app+` route file to it.
 */
export async function requireAppUser(request: Request): Promise<AuthContext> {
  const ctx = await requireUser(request);
  if (!ctx.user.verified_at) throw redirect("/verification");
  if (!ctx.user.devices_updated_at && (await countDevices(db(), ctx)) === 0) throw redirect("/setup");
  return ctx;
}

/** requireAppUser for the admin-only screens: others get the not-allowed state (403). */
export async function requireAppAdmin(request: Request): Promise<AuthContext> {
  const ctx = await requireAppUser(request);
  requireOrgAdmin(ctx);
  return ctx;
}

export type { AuthContext };

export function requireFeature(ctx: AuthContext, feature: string) {
  if (!ctx.features.includes(feature)) {
    throw json({ error: "feature_unavailable", feature }, { status: 403 });
  }
}
