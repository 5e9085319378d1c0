import { json, type ActionFunctionArgs } from "@remix-run/node";
import { deleteTruckDiameterMeasurements } from "~/models/shipment.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { TruckIdsSchema } from "~/utils/schemas/truck";

/**
 * DELETE /truck_diameter_measurements {measurement_ids}: soft delete, all or nothing, as DELETE
 * /truck_measurements (the spec names no call for this kind; this one follows that one). Not
 * gated by the cmpc flag: any organisation's devices may upload truck-diameter measurements.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, TruckIdsSchema);
  const deleted = await withAppErrors(() => deleteTruckDiameterMeasurements(db(), ctx, body.measurement_ids));
  return json({ deleted });
}

export function loader() {
  return methodNotAllowed();
}
