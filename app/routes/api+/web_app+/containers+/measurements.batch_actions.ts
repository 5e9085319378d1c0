import { json, type ActionFunctionArgs } from "@remix-run/node";
import { batchContainerMeasurements } from "~/models/container-measurement.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { ContainerBatchSchema } from "~/utils/schemas/containers";
import { requireContainersUser } from "./__containers-api.server";

/**
 * PATCH /containers/measurements/batch_actions {measurement_ids and one of container_id,
 * locked_at, delete}: all or nothing; {affected}.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireContainersUser(request);
  const batch = await parseBody(request, ContainerBatchSchema);
  return json(await withAppErrors(() => batchContainerMeasurements(db(), ctx, batch)));
}

export function loader() {
  return methodNotAllowed();
}
