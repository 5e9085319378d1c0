import { json } from "@remix-run/node";
import { requireUser, type AuthContext } from "./auth.server";

/** Admin-only screens: others get the not-allowed state (403) from the error boundary. */
export async function requireAdminScreen(request: Request): Promise<AuthContext> {
  const ctx = await requireUser(request);
  if (!ctx.isAdmin) throw json({ error: "forbidden" }, { status: 403 });
  return ctx;
}

/** Field errors of a zod result keyed by path, for the plain-form screens. */
export function issuesToErrors(issues: { path: PropertyKey[]; message: string }[], strip = 0) {
  const errors: Record<string, string[]> = {};
  for (const i of issues) (errors[i.path.slice(strip).map(String).join(".") || "_"] ??= []).push(i.message);
  return errors;
}

export function unknownIntent(): never {
  throw json({ error: "unknown_intent" }, { status: 400 });
}
