import type { AuthContext } from "~/utils/auth-context";
import { forbidden } from "~/utils/errors";

// What the mixed stack screens share: the organisation's mixed_stack_reports feature (the tab is
// hidden without it; opening a screen anyway is 403).

export function requireMixedStackScreens(ctx: AuthContext) {
  if (!ctx.features.includes("mixed_stack_reports")) forbidden("feature_unavailable");
}
