import { containerDeviceUpload } from "~/models/container-measurement.server";
import { methodNotAllowed } from "~/utils/api.server";
import { handleDeviceUpload } from "~/utils/device-upload.server";
import type { ActionFunctionArgs } from "@remix-run/node";

/**
 * POST /api/device/container_measurements (multipart): `photo` (the log ends through the door)
 * and `measurement` (JSON: client_id, taken_at, storage_id, log_length, logs, references,
 * container_id, ...). 201 with the measurement and its JAS figures; a retry with the same
 * client_id answers 200 with the first one and creates nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  return handleDeviceUpload(request, containerDeviceUpload);
}

export function loader() {
  return methodNotAllowed();
}
