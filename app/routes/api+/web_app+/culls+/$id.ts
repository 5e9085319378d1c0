import { json, type ActionFunctionArgs } from "@remix-run/node";
import { listCulls, updateCull } from "~/models/master-data.server";
import { methodNotAllowed, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { requireOwnRow } from "~/utils/master-data-api.server";
import { CullPatchSchema } from "~/utils/schemas/master-data";

/** PATCH /api/web_app/culls/{id} cull{reason, min, max}; DELETE archives it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  await requireOwnRow(ctx, "culls", id);
  if (request.method === "DELETE") {
    await updateCull(db(), ctx, id, { archived: true });
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  await updateCull(db(), ctx, id, await parseBody(request, CullPatchSchema));
  return json((await listCulls(db(), ctx)).find((c) => c.id === id));
}

export function loader() {
  return methodNotAllowed();
}
