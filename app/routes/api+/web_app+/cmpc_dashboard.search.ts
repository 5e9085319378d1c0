import { json, type ActionFunctionArgs } from "@remix-run/node";
import { cmpcSearch } from "~/models/shipment.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { requireCmpc } from "~/utils/cmpc.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { CmpcSearchSchema } from "~/utils/schemas/shipment";

/**
 * POST /cmpc_dashboard/search {q: {f: {shipment_id, id}}}: {truck_measurements,
 * truck_diameter_measurements} of one shipment (the dashboard's measurement cards). Another
 * organisation's shipment is 404, as is an organisation not flagged for the dashboard.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireCmpc(ctx);
  const body = await parseBody(request, CmpcSearchSchema);
  return json(await withAppErrors(() => cmpcSearch(db(), ctx, { shipmentId: body.q.f.shipment_id, id: body.q.f.id })));
}

export function loader() {
  return methodNotAllowed();
}
