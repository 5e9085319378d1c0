import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createInventory, getInventory, listInventories, serializeInventory } from "~/models/inventory.server";
import { fieldErrors, methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { CreateInventorySchema, inventoryFilterFromSearch } from "~/utils/schemas/inventory";
import { pageParam } from "~/utils/schemas/limits";

/** GET /inventories?storage_id=&month=yyyy-MM&page=: newest first, with their figures (m³). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, "inventories");
  const url = new URL(request.url);
  const { parsed } = inventoryFilterFromSearch(url.searchParams);
  if (!parsed.success) return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  const list = await listInventories(db(), ctx, parsed.data, pageParam(url.searchParams.get("page")));
  return json({ inventories: list.inventories.map(serializeInventory), meta: list.meta });
}

/** POST /inventories {storage_id}: an open inventory of the storage; refusals are 422 on storage_id. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireFeature(ctx, "inventories");
  const { storage_id } = await parseBody(request, CreateInventorySchema);
  const id = await withAppErrors(() => createInventory(db(), ctx, storage_id));
  return json({ data: serializeInventory(await getInventory(db(), ctx, id)) }, { status: 201 });
}
