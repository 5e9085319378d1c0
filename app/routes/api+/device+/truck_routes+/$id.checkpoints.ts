import { json, type ActionFunctionArgs } from "@remix-run/node";
import { addCheckpoints, getRoute } from "~/models/truck-route.server";
import { publishCheckpoints } from "~/services/truck-tracking.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";
import { withAppErrors } from "~/utils/errors";
import { CheckpointBatchSchema } from "~/utils/schemas/truck";

/**
 * POST /api/device/truck_routes/{id}/checkpoints {checkpoints: [{client_id, latitude, longitude,
 * recorded_at, speed?, heading?}]}: stores the ones the route does not have yet (a resent batch
 * adds nothing; batches in any order), publishes each new one as `checkpoint-created`, and
 * answers {stored, received}. A checkpoint recorded before the route's start is 422 for the batch.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { organizationId } = await requireDevice(request);
  const id = parseId(params.id);
  // Tenancy before validation: another organisation's route is 404 whatever the body. A valid
  // batch learns it inside addCheckpoints (its route lock is scoped by the organisation), so the
  // route is looked up beforehand only for a body that is refused.
  let body;
  try {
    body = await parseBody(request, CheckpointBatchSchema);
  } catch (refused) {
    if (!(await getRoute(db(), { organizationId }, id))) notFound();
    throw refused;
  }
  const stored = await withAppErrors(() => addCheckpoints(db(), { organizationId }, id, body.checkpoints));
  await publishCheckpoints(organizationId, stored);
  return json({ stored: stored.length, received: body.checkpoints.length });
}

export function loader() {
  return methodNotAllowed();
}
