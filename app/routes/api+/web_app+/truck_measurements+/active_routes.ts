import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { activeRoutes } from "~/models/truck-route.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /truck_measurements/active_routes (feature truck_detection): unfinished routes with each truck's last position. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, "truck_detection");
  return json({ data: await activeRoutes(db(), ctx) });
}
