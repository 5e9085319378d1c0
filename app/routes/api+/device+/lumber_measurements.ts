import { lumberDeviceUpload } from "~/models/lumber.server";
import { methodNotAllowed } from "~/utils/api.server";
import { handleDeviceUpload } from "~/utils/device-upload.server";
import type { ActionFunctionArgs } from "@remix-run/node";

/**
 * POST /api/device/lumber_measurements (multipart): `photo` (the package end) and `measurement`
 * (JSON: client_id, taken_at, storage_id, lumber_product_id, planks, ...). 201 with the counted
 * measurement; a retry with the same client_id answers 200 with the first one and creates nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  return handleDeviceUpload(request, lumberDeviceUpload);
}

export function loader() {
  return methodNotAllowed();
}
