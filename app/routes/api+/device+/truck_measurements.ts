import { truckDeviceUpload } from "~/models/truck.server";
import { methodNotAllowed } from "~/utils/api.server";
import { handleDeviceUpload } from "~/utils/device-upload.server";
import type { ActionFunctionArgs } from "@remix-run/node";

/**
 * POST /api/device/truck_measurements (multipart): `photo` (the load's side) and `measurement`
 * (JSON: client_id, taken_at, storage_id, license_plate, shipment_number, weight, loads, ...). 201
 * with the measurement and its load volumes; a retry with the same client_id answers 200 with the
 * first one and creates nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  return handleDeviceUpload(request, truckDeviceUpload);
}

export function loader() {
  return methodNotAllowed();
}
