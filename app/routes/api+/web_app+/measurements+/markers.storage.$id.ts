import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { storageMarkers } from "~/models/timber-dashboard.server";
import { fieldErrors, notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { dashboardFilterSchema, filterParamsFromSearch } from "~/utils/schemas/timber";

/** GET /measurements/markers/storage/{id} (optionally with the dashboard filter): {items: [{id, latitude, longitude}]}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const parsed = dashboardFilterSchema(ctx.user.time_zone).safeParse(
    filterParamsFromSearch(new URL(request.url).searchParams),
  );
  if (!parsed.success) return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  const items = await storageMarkers(db(), ctx, id, parsed.data);
  if (!items) notFound();
  return json({ items });
}
