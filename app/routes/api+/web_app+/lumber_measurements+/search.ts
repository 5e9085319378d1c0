import { json, type ActionFunctionArgs } from "@remix-run/node";
import { searchLumberMeasurements } from "~/models/lumber.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { LumberSearchSchema } from "~/utils/schemas/lumber";

/**
 * POST /lumber_measurements/search {storage_id, measurement_ids, page}: a page of 5 lumber
 * measurements, newest first, with total_pages. Another organisation's storage is 404.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, LumberSearchSchema);
  return json(
    await withAppErrors(() =>
      searchLumberMeasurements(db(), ctx, {
        storageId: body.storage_id,
        measurementIds: body.measurement_ids,
        page: body.page,
      }),
    ),
  );
}

export function loader() {
  return methodNotAllowed();
}
