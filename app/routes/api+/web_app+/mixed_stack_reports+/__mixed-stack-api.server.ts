import { mixedStackReportExists } from "~/models/mixed-stack-report.server";
import { parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";

// What the /mixed_stack_reports calls share: the signed-in caller of an organisation with the
// mixed_stack_reports feature (403 feature_unavailable without it).

export const MIXED_STACK_FEATURE = "mixed_stack_reports";

export async function requireMixedStackUser(request: Request) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, MIXED_STACK_FEATURE);
  return ctx;
}

/** The caller and one report of theirs: 404 for another organisation's (before any other check: an outsider learns nothing). */
export async function requireMixedStackReport(request: Request, idParam: string | undefined) {
  const ctx = await requireApiUser(request);
  const id = parseId(idParam);
  if (!(await mixedStackReportExists(db(), ctx.organizationId, id))) notFound();
  requireFeature(ctx, MIXED_STACK_FEATURE);
  return { ctx, id };
}
