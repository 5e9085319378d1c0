import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listShipments } from "~/models/shipment.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/**
 * GET /shipments/list: the organisation's shipments as a lookup (id, number, created_at), newest
 * first. A lookup like /storages/list: every organisation may have shipments (a truck upload
 * names one), so it is not behind the cmpc flag.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listShipments(db(), ctx));
}
