import { json, type ActionFunctionArgs } from "@remix-run/node";
import { finishRoute, serializeRoute } from "~/models/truck-route.server";
import { methodNotAllowed, parseBody, parseId } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";
import { withAppErrors } from "~/utils/errors";
import { TruckRouteFinishSchema } from "~/utils/schemas/truck";

/** PATCH /api/device/truck_routes/{id} {finished_at}: finishes the route (the first finish stays). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { organizationId } = await requireDevice(request);
  const id = parseId(params.id);
  const body = await parseBody(request, TruckRouteFinishSchema);
  const route = await withAppErrors(() => finishRoute(db(), { organizationId }, id, body.finished_at));
  return json({ data: serializeRoute(route) });
}

export function loader() {
  return methodNotAllowed();
}
