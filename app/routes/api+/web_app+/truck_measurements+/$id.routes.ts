import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { measurementRoutes, serializeRoute } from "~/models/truck-route.server";
import { getTruckMeasurementRow } from "~/models/truck.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /truck_measurements/{id}/routes: {data: routes with started_at, finished_at, last_checkpoint}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  if (!(await getTruckMeasurementRow(db(), ctx, id))) notFound();
  const routes = await measurementRoutes(db(), ctx, id);
  return json({ data: routes.map(serializeRoute) });
}
