import { json, type ActionFunctionArgs } from "@remix-run/node";
import { deleteTruckMeasurements } from "~/models/truck.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { TruckIdsSchema } from "~/utils/schemas/truck";

/** DELETE /truck_measurements {measurement_ids}: soft delete, all or nothing. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, TruckIdsSchema);
  const deleted = await withAppErrors(() => deleteTruckMeasurements(db(), ctx, body.measurement_ids));
  return json({ deleted });
}

export function loader() {
  return methodNotAllowed();
}
