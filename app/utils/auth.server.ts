import { json, redirect } from "@remix-run/node";
import type { Organization, Role, User } from "#db/schema";
import { getOrganization, listOrganizationsOfUser } from "~/models/organization.server";
import { isOrganizationAdmin, listRolesInOrganization } from "~/models/role.server";
import { findSession } from "~/models/session.server";
import { getUserById } from "~/models/user.server";
import { db } from "./db.server";
import { clearSessionCookie, getSessionToken } from "./session.server";

/**
 * Who is asking, in which organisation, with what rights. Every model function takes it first.
 */
export interface AuthContext {
  userId: number;
  organizationId: number;
  roles: Role[];
  features: string[];
  isAdmin: boolean;
  user: User;
  organization: Organization;
  organizations: { id: number; name: string }[];
}

export class NoOrganizationError extends Error {}

export async function loadAuthContext(userId: number): Promise<AuthContext | null> {
  const user = await getUserById(db(), userId);
  if (!user) return null;
  const organizations = await listOrganizationsOfUser(db(), userId);
  if (organizations.length === 0) throw new NoOrganizationError(`user ${userId} belongs to no organisation`);
  const current = organizations.find((o) => o.id === user.recent_organization_id) ?? organizations[0];
  const [organization, roles] = await Promise.all([
    getOrganization(db(), current.id),
    listRolesInOrganization(db(), userId, current.id),
  ]);
  if (!organization) return null;
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

function safeRedirectTo(request: Request) {
  const url = new URL(request.url);
  const target = url.pathname + url.search;
  return target.startsWith("/") && !target.startsWith("//") ? target : "/";
}

/** Screens: the signed-in user's context, or a redirect to /login (with the session-expired notice when it expired). */
export async function requireUser(request: Request): Promise<AuthContext> {
  const token = await getSessionToken(request);
  const lookup = await findSession(db(), token);
  if (lookup.status !== "valid") {
    const params = new URLSearchParams({ redirectTo: safeRedirectTo(request) });
    if (lookup.status === "expired") params.set("expired", "1");
    throw redirect(`/login?${params}`, token ? { headers: { "Set-Cookie": await clearSessionCookie() } } : undefined);
  }
  const ctx = await loadAuthContext(lookup.userId).catch((error) => {
    // Every role of the account was removed: it may sign in but sees nothing.
    if (error instanceof NoOrganizationError) throw json({ error: "no_organization" }, { status: 403 });
    throw error;
  });
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
  const lookup = await findSession(db(), token);
  if (lookup.status === "expired") throw json({ error: "expired_token" }, { status: 401 });
  if (lookup.status === "invalid") throw json({ error: "invalid_token" }, { status: 401 });
  const ctx = await loadAuthContext(lookup.userId).catch((error) => {
    if (error instanceof NoOrganizationError) throw json({ error: "no_organization" }, { status: 403 });
    throw error;
  });
  if (!ctx) throw json({ error: "invalid_token" }, { status: 401 });
  return ctx;
}

export function requireOrgAdmin(ctx: AuthContext) {
  if (!ctx.isAdmin) throw json({ error: "forbidden", message: "Organisation admins only" }, { status: 403 });
}

export function requireFeature(ctx: AuthContext, feature: string) {
  if (!ctx.features.includes(feature)) {
    throw json({ error: "feature_unavailable", feature }, { status: 403 });
  }
}
