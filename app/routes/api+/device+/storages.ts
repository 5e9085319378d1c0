import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listDeviceStorages } from "~/models/timber-lookups.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";

/** GET /api/device/storages: the storages this device may upload into. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { device } = await requireDevice(request);
  return json(await listDeviceStorages(db(), device));
}
