import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getTruckMeasurementRow, patchTruckMeasurement, serializeTruckMeasurement } from "~/models/truck.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { TruckPatchSchema } from "~/utils/schemas/truck";

/** GET /truck_measurements/{id}: {data} with its truck and loads. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const m = await getTruckMeasurementRow(db(), ctx, parseId(params.id));
  if (!m) notFound();
  return json({ data: await serializeTruckMeasurement(db(), ctx, m) });
}

/**
 * PATCH /truck_measurements/{id} {loads, loads_removed, measurement_type_id, weight,
 * weight_density, volume_formula}: the server recomputes each load's and the truck's volume.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  // Tenancy before validation: another organisation's id is 404 whatever the body.
  if (!(await getTruckMeasurementRow(db(), ctx, id))) notFound();
  const patch = await parseBody(request, TruckPatchSchema);
  const m = await withAppErrors(() => patchTruckMeasurement(db(), ctx, id, patch));
  return json({ data: await serializeTruckMeasurement(db(), ctx, m) });
}
