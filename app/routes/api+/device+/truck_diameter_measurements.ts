import { truckDiameterDeviceUpload } from "~/models/shipment.server";
import { methodNotAllowed } from "~/utils/api.server";
import { handleDeviceUpload } from "~/utils/device-upload.server";
import type { ActionFunctionArgs } from "@remix-run/node";

/**
 * POST /api/device/truck_diameter_measurements (multipart): `photo` (the log ends on the truck)
 * and `measurement` (JSON: client_id, taken_at, storage_id, shipment_number, measurement_type_id,
 * log_length, volume_formula, logs [{x, y, r}], references, trailer_license_plate, load_bed_name,
 * detector, ...). 201 with the measurement and its figures; the shipment of the number is made
 * on first use; a retry with the same client_id answers 200 with the first one.
 */
export async function action({ request }: ActionFunctionArgs) {
  return handleDeviceUpload(request, truckDiameterDeviceUpload);
}

export function loader() {
  return methodNotAllowed();
}
