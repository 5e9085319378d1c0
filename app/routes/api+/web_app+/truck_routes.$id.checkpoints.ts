import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { routeCheckpoints } from "~/models/truck-route.server";
import { parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";

/** GET /truck_routes/{id}/checkpoints: {data: the route's checkpoints (latitude, longitude, recorded_at) in time order}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  return json({ data: await withAppErrors(() => routeCheckpoints(db(), ctx, id)) });
}
