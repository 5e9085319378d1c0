import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createLumberProduct, getLumberProduct, listLumberProducts } from "~/models/master-data.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { LumberProductCreateSchema } from "~/utils/schemas/master-data";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listLumberProducts(db(), ctx));
}

/** POST /api/web_app/lumber_products {name, plank_length, plank_width, plank_height} (each > 0). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = await createLumberProduct(db(), ctx, await parseBody(request, LumberProductCreateSchema));
  return json(await getLumberProduct(db(), ctx, id), { status: 201 });
}
