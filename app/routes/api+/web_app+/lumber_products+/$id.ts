import { json, type ActionFunctionArgs } from "@remix-run/node";
import { deleteLumberProduct, getLumberProduct, updateLumberProduct } from "~/models/master-data.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { LumberProductPatchSchema } from "~/utils/schemas/master-data";

/** PATCH and DELETE /api/web_app/lumber_products/{id}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  if (request.method === "DELETE") {
    if (!(await deleteLumberProduct(db(), ctx, id))) notFound();
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  if (!(await getLumberProduct(db(), ctx, id))) notFound();
  await updateLumberProduct(db(), ctx, id, await parseBody(request, LumberProductPatchSchema));
  return json(await getLumberProduct(db(), ctx, id));
}

export function loader() {
  return methodNotAllowed();
}
