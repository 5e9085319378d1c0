import { json, type ActionFunctionArgs } from "@remix-run/node";
import { moveMeasurements } from "~/models/timber.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { MoveStorageSchema } from "~/utils/schemas/timber";

/** PATCH /measurements/move_storage {move_storage:[{measurement_id, storage_id}]}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, MoveStorageSchema);
  const moved = await withAppErrors(() => moveMeasurements(db(), ctx, body.move_storage));
  return json({ moved });
}

export function loader() {
  return methodNotAllowed();
}
