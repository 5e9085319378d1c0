import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { lumberDashboardStorages } from "~/models/lumber-dashboard.server";
import { dashboardStorages } from "~/models/timber-dashboard.server";
import { fieldErrors } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { dashboardFilterSchema, filterParamsFromSearch } from "~/utils/schemas/timber";

/**
 * GET /dashboard_filter?storage_ids=&taken_at_start=&...&custom_fields[key]=: storages with their
 * filtered totals. With lumber_measurements=true the totals are of lumber measurements
 * (planks_count, volume; lumber_product_ids honoured), else of timber measurements.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const parsed = dashboardFilterSchema(ctx.user.time_zone).safeParse(
    filterParamsFromSearch(new URL(request.url).searchParams),
  );
  if (!parsed.success) return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  const storages =
    parsed.data.lumber_measurements === "true"
      ? await lumberDashboardStorages(db(), ctx, parsed.data)
      : await dashboardStorages(db(), ctx, parsed.data);
  return json({ storages: storages.map((s) => ({ ...s, volume_unit: "m^3" })) });
}
