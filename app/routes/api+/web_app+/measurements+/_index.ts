import { json, type ActionFunctionArgs } from "@remix-run/node";
import { deleteMeasurements } from "~/models/timber.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { MeasurementIdsSchema } from "~/utils/schemas/timber";

/** DELETE /measurements {measurement_ids}: soft delete (the deleted page lists them). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, MeasurementIdsSchema);
  const deleted = await withAppErrors(() => deleteMeasurements(db(), ctx, body.measurement_ids));
  return json({ deleted });
}

export function loader() {
  return methodNotAllowed();
}
