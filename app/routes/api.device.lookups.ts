import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listDeviceLookups } from "~/models/timber-lookups.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";

/** GET /api/device/lookups: the master data the app needs to fill a measurement in. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { organizationId } = await requireDevice(request);
  return json(await listDeviceLookups(db(), { organizationId }));
}
