import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getAssortment, updateAssortment } from "~/models/master-data.server";
import { methodNotAllowed, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { fieldError, requireOwnRow } from "~/utils/master-data-api.server";
import { AssortmentPatchSchema } from "~/utils/schemas/master-data";

/** PATCH /api/web_app/assortments/{id} wood_characteristic{...}; DELETE archives it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  await requireOwnRow(ctx, "assortments", id);
  requireFeature(ctx, "timber_management");
  if (request.method === "DELETE") {
    await updateAssortment(db(), ctx, id, { archived: true });
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  const input = await parseBody(request, AssortmentPatchSchema);
  if (input.min != null || input.max != null) requireFeature(ctx, "minmax_assortments");
  const result = await updateAssortment(db(), ctx, id, input);
  if (typeof result === "object") return fieldError(result.error, "accounts:timber.lookupInvalid");
  return json(await getAssortment(db(), ctx, id));
}

export function loader() {
  return methodNotAllowed();
}
