import { timberDeviceUpload } from "~/models/timber.server";
import { methodNotAllowed } from "~/utils/api.server";
import { handleDeviceUpload } from "~/utils/device-upload.server";
import type { ActionFunctionArgs } from "@remix-run/node";

/**
 * POST /api/device/measurements (multipart): `photo` (the stack photo) and `measurement` (JSON:
 * client_id, taken_at, storage_id, logs, references, ...). 201 with the computed measurement; a
 * retry with the same client_id answers 200 with the first one and creates nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  return handleDeviceUpload(request, timberDeviceUpload);
}

export function loader() {
  return methodNotAllowed();
}
