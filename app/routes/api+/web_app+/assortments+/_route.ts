import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createAssortment, getAssortment, listAssortmentRows } from "~/models/master-data.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { fieldError } from "~/utils/master-data-api.server";
import { AssortmentCreateSchema } from "~/utils/schemas/master-data";

/** GET /api/web_app/assortments: built-in and own, sorted by name (min/max are the diameter bounds). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listAssortmentRows(db(), ctx));
}

/** POST /api/web_app/assortments wood_characteristic{...}: admins with timber_management; bounds need minmax_assortments. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  requireFeature(ctx, "timber_management");
  const input = await parseBody(request, AssortmentCreateSchema);
  if (input.min != null || input.max != null) requireFeature(ctx, "minmax_assortments");
  const created = await createAssortment(db(), ctx, input);
  if ("error" in created) return fieldError(created.error!, "accounts:timber.lookupInvalid");
  return json(await getAssortment(db(), ctx, created.id!), { status: 201 });
}
