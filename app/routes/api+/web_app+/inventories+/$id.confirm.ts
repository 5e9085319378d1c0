import { json, type ActionFunctionArgs } from "@remix-run/node";
import { confirmInventory, getInventory, serializeInventory } from "~/models/inventory.server";
import { methodNotAllowed, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";

/** POST /inventories/{id}/confirm: one way; locks what it counted. A second confirm is 422. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireFeature(ctx, "inventories");
  const id = parseId(params.id);
  const counted = await withAppErrors(() => confirmInventory(db(), ctx, id));
  return json({ data: serializeInventory(await getInventory(db(), ctx, id)), locked: counted });
}

export function loader() {
  return methodNotAllowed();
}
