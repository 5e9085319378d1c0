import { json, type ActionFunctionArgs } from "@remix-run/node";
import { searchTruckMeasurements } from "~/models/truck.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { TruckSearchSchema } from "~/utils/schemas/truck";

/**
 * POST /truck_measurements/search {q: {f: {storage_id, measurement_id, license_plate}},
 * paginate: {per_page: 5, page}}: {meta: {total_pages, ...}, measurements}, newest first.
 * Another organisation's storage is 404.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, TruckSearchSchema);
  return json(
    await withAppErrors(() =>
      searchTruckMeasurements(db(), ctx, {
        storageId: body.q.f.storage_id,
        measurementId: body.q.f.measurement_id,
        licensePlate: body.q.f.license_plate,
        page: body.paginate.page,
      }),
    ),
  );
}

export function loader() {
  return methodNotAllowed();
}
