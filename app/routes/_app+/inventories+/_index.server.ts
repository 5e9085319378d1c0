import { json } from "@remix-run/node";
import { confirmInventory, createInventory, inventoryStorageName, inventoryStorages } from "~/models/inventory.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { errorResponse, notFound, unknownIntent, ValidationError } from "~/utils/errors";
import { CreateInventorySchema } from "~/utils/schemas/inventory";
import { redirectWithToast } from "~/utils/toast.server";

// The inventories page's form posts: create (also posted by the timber dashboard's row menu) and
// confirm. Both need a confirmation: with JavaScript the browser asks and the form carries
// confirmed=1; without it the post comes back as a second step (`step`) whose form carries it.
// Refusals come back as `errors` (translation keys), shown joined by ". ".

export type InventoryStep = { intent: "create" | "confirm"; id: number; storageName: string };
export type InventoryActionData = { step?: InventoryStep; errors?: string[] };

export async function handleInventoryAction(request: Request, ctx: AuthContext) {
  const form = await request.formData();
  const intent = form.get("intent");
  const confirmed = form.get("confirmed") === "1";
  try {
    switch (intent) {
      case "create": {
        const parsed = CreateInventorySchema.safeParse({ storage_id: form.get("storage_id") });
        if (!parsed.success) notFound();
        const storageId = parsed.data.storage_id;
        if (!confirmed) {
          const storage = (await inventoryStorages(db(), ctx)).find((s) => s.id === storageId);
          if (!storage) notFound();
          return json<InventoryActionData>({ step: { intent, id: storageId, storageName: storage.name } });
        }
        const id = await createInventory(db(), ctx, storageId);
        return redirectWithToast(`/inventories?open=${id}`, { type: "success", key: "inventories:toast.created" });
      }
      case "confirm": {
        const id = Number(form.get("inventory_id"));
        if (!Number.isSafeInteger(id) || id <= 0) notFound();
        if (!confirmed) {
          const { storageName, confirmed: done } = await inventoryStorageName(db(), ctx, id);
          if (done)
            return json<InventoryActionData>({ errors: ["inventories:errors.alreadyConfirmed"] }, { status: 422 });
          return json<InventoryActionData>({ step: { intent, id, storageName } });
        }
        await confirmInventory(db(), ctx, id);
        return redirectWithToast(`/inventories?open=${id}`, { type: "success", key: "inventories:toast.confirmed" });
      }
      default:
        unknownIntent();
    }
  } catch (error) {
    if (error instanceof ValidationError)
      return json<InventoryActionData>({ errors: Object.values(error.errors).flat() }, { status: 422 });
    throw errorResponse(error) ?? error;
  }
}
