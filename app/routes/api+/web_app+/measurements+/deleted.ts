import { json, type ActionFunctionArgs } from "@remix-run/node";
import { roundHalfUp } from "~/domain/numeric";
import { deletedMeasurements } from "~/models/timber-dashboard.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { DeletedSearchSchema, parseFilterDate } from "~/utils/schemas/timber";

/** POST /measurements/deleted {created_at_from?, created_at_until?} (dd.MM.yyyy or ISO): deleted measurements by storage. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, DeletedSearchSchema);
  const errors: Record<string, string[]> = {};
  const from = body.created_at_from ? parseFilterDate(body.created_at_from, false, ctx.user.time_zone) : null;
  const until = body.created_at_until ? parseFilterDate(body.created_at_until, true, ctx.user.time_zone) : null;
  if (body.created_at_from && !from) errors.created_at_from = ["timber:errors.date"];
  if (body.created_at_until && !until) errors.created_at_until = ["timber:errors.date"];
  if (Object.keys(errors).length) return json({ error: "validation_failed", errors }, { status: 422 });
  const result = await deletedMeasurements(db(), ctx, { from, until });
  return json({ ...result, total_volume: roundHalfUp(result.total_volume, 3), volume_unit: "m^3" });
}

export function loader() {
  return methodNotAllowed();
}
