import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { cmpcDashboard } from "~/models/shipment.server";
import { fieldErrors } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { requireCmpc } from "~/utils/cmpc.server";
import { db } from "~/utils/db.server";
import { cmpcFilterSchema, cmpcParams } from "~/utils/schemas/shipment";

/**
 * GET /dashboard_filter/cmpc?page=&shipment_number=&created_at_start=&created_at_end=&route_status=:
 * {shipments, meta: {total_pages, ...}, pagination, summary} (docs/decisions/023-shipments.md).
 * 404 for an organisation not flagged for the shipments dashboard.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireCmpc(ctx);
  const parsed = cmpcFilterSchema(ctx.user.time_zone).safeParse(cmpcParams(new URL(request.url).searchParams));
  if (!parsed.success) return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  return json(await cmpcDashboard(db(), ctx, parsed.data));
}
