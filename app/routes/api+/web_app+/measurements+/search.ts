import { json, type ActionFunctionArgs } from "@remix-run/node";
import { searchMeasurements } from "~/models/timber-dashboard.server";
import { fieldErrors, methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { dashboardFilterSchema, SearchSchema } from "~/utils/schemas/timber";

/**
 * POST /measurements/search {q:{f:{storage_id, measurement_id, ...dashboard filters}}, paginate:{per_page, page}}:
 * a page of measurements, newest first, with meta.total_pages.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, SearchSchema);
  const { storage_id, measurement_id, ...rest } = body.q.f;
  // The rest of q.f is the dashboard filter, as query-string values (lists comma-separated).
  const asStrings = Object.fromEntries(
    Object.entries(rest)
      .filter(([, v]) => v !== null && v !== undefined && v !== "")
      .map(([k, v]) => [k, k === "custom_fields" ? v : Array.isArray(v) ? v.join(",") : String(v)]),
  );
  const filter = dashboardFilterSchema(ctx.user.time_zone).safeParse(asStrings);
  if (!filter.success) {
    const errors = Object.fromEntries(Object.entries(fieldErrors(filter.error)).map(([k, v]) => [`q.f.${k}`, v]));
    return json({ error: "validation_failed", errors }, { status: 422 });
  }
  const ids = measurement_id === undefined ? undefined : String(measurement_id).split(",").map(Number);
  return json(
    await searchMeasurements(db(), ctx, {
      storageId: storage_id,
      measurementIds: ids,
      filter: filter.data,
      page: body.paginate.page,
      perPage: body.paginate.per_page,
    }),
  );
}

export function loader() {
  return methodNotAllowed();
}
