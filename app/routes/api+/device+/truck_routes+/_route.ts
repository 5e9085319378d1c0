import { json, type ActionFunctionArgs } from "@remix-run/node";
import { serializeRoute, startRoute } from "~/models/truck-route.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";
import { withAppErrors } from "~/utils/errors";
import { TruckRouteStartSchema } from "~/utils/schemas/truck";

/**
 * POST /api/device/truck_routes {client_id, truck_measurement_id, started_at}: starts a route for
 * one of the device's organisation's truck measurements. 201 the first time; the same client_id
 * again answers 200 with the same route.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { organizationId } = await requireDevice(request);
  const body = await parseBody(request, TruckRouteStartSchema);
  const { route, created } = await withAppErrors(() => startRoute(db(), { organizationId }, body));
  return json({ data: serializeRoute(route) }, { status: created ? 201 : 200 });
}

export function loader() {
  return methodNotAllowed();
}
