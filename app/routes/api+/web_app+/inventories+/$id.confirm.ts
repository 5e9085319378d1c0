import { json, type ActionFunctionArgs } from "@remix-run/node";
import { confirmInventory, getInventory, inventoryStorageName, serializeInventory } from "~/models/inventory.server";
import { methodNotAllowed, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";

/** POST /inventories/{id}/confirm: one way; locks what it counted. A second confirm is 422. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  // Another organisation's inventory is not found, whatever this organisation's plan.
  await withAppErrors(() => inventoryStorageName(db(), ctx, id));
  requireFeature(ctx, "inventories");
  const counted = await withAppErrors(() => confirmInventory(db(), ctx, id));
  return json({ data: serializeInventory(await getInventory(db(), ctx, id)), locked: counted });
}

export function loader() {
  return methodNotAllowed();
}
