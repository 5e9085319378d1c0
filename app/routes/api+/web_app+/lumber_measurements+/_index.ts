import { json, type ActionFunctionArgs } from "@remix-run/node";
import { deleteLumberMeasurements } from "~/models/lumber.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { LumberIdsSchema } from "~/utils/schemas/lumber";

/** DELETE /lumber_measurements {measurement_ids}: soft delete (the dashboard asks for confirmation first). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const body = await parseBody(request, LumberIdsSchema);
  const deleted = await withAppErrors(() => deleteLumberMeasurements(db(), ctx, body.measurement_ids));
  return json({ deleted });
}

export function loader() {
  return methodNotAllowed();
}
