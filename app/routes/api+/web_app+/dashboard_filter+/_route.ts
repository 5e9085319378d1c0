import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { dashboardStorages } from "~/models/timber-dashboard.server";
import { fieldErrors } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { dashboardFilterSchema, filterParamsFromSearch } from "~/utils/schemas/timber";

/** GET /dashboard_filter?storage_ids=&taken_at_start=&...&custom_fields[key]=: storages with their filtered totals. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const parsed = dashboardFilterSchema(ctx.user.time_zone).safeParse(
    filterParamsFromSearch(new URL(request.url).searchParams),
  );
  if (!parsed.success) return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  const storages = await dashboardStorages(db(), ctx, parsed.data);
  return json({ storages: storages.map((s) => ({ ...s, volume_unit: "m^3" })) });
}
