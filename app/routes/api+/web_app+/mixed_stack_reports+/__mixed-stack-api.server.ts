import { requireApiUser, requireFeature } from "~/utils/auth.server";

// What the /mixed_stack_reports calls share: the signed-in caller of an organisation with the
// mixed_stack_reports feature (403 feature_unavailable without it).

export const MIXED_STACK_FEATURE = "mixed_stack_reports";

export async function requireMixedStackUser(request: Request) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, MIXED_STACK_FEATURE);
  return ctx;
}
