import type { AuthContext } from "~/utils/auth-context";
import { notFound } from "~/utils/errors";

/**
 * The shipments dashboard (cmpc mode) exists only for organisations flagged for it (the shell's
 * rule, organizations.cmpc_enabled): for any other its screens and calls are 404, as a route
 * that is not there (docs/decisions/023-shipments.md).
 */
export function requireCmpc(ctx: Pick<AuthContext, "organization">) {
  if (!ctx.organization.cmpc_enabled) notFound();
}
