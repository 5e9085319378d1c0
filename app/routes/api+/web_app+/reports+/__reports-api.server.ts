import { json } from "@remix-run/node";
import { MissingAssortmentError, openReport } from "~/models/report.server";
import { parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorResponse, withAppErrors } from "~/utils/errors";

// What the /reports calls share (docs/decisions/021-reports.md): the reports feature (403
// feature_unavailable), the report of a path looked up first (another organisation's is 404
// whatever the caller's plan), and the add rule's refusal naming its measurements.

export const REPORTS_FEATURE = "reports";

export async function requireReportsUser(request: Request) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, REPORTS_FEATURE);
  return ctx;
}

export async function requireReportOf(request: Request, idParam: string | undefined) {
  const ctx = await requireApiUser(request);
  const id = parseId(idParam);
  const opened = await withAppErrors(() => openReport(db(), ctx, id));
  requireFeature(ctx, REPORTS_FEATURE);
  return { ctx, id, ...opened };
}

/** withAppErrors, and the missing-assortment 422 with `measurement_ids` naming what stopped it. */
export async function reportCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof MissingAssortmentError)
      throw json({ error: error.code, errors: error.errors, measurement_ids: error.measurementIds }, { status: 422 });
    throw errorResponse(error) ?? error;
  }
}
