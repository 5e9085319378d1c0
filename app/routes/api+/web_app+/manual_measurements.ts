import { json, type ActionFunctionArgs } from "@remix-run/node";
import { createManualMeasurement, serializeMeasurement } from "~/models/timber.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { ManualMeasurementSchema } from "~/utils/schemas/timber";

/** POST /manual_measurements {manual_measurement:{taken_at, measurement_type_id, volume, wood_characteristic_id?, storage_id, comment?}}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, ManualMeasurementSchema);
  const m = await withAppErrors(() => createManualMeasurement(db(), ctx, body.manual_measurement));
  return json({ data: await serializeMeasurement(db(), ctx, m, {}) }, { status: 201 });
}

export function loader() {
  return methodNotAllowed();
}
