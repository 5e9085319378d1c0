import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getDiameterProfile, updateDiameterProfile } from "~/models/master-data.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { fieldError } from "~/utils/master-data-api.server";
import { DiameterProfilePatchSchema } from "~/utils/schemas/master-data";

/** PATCH /api/web_app/diameter_profiles/{id}; DELETE archives it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  if (!(await getDiameterProfile(db(), ctx, id))) notFound();
  requireFeature(ctx, "diameter_profiles");
  if (request.method === "DELETE") {
    await updateDiameterProfile(db(), ctx, id, { archived: true });
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  const result = await updateDiameterProfile(db(), ctx, id, await parseBody(request, DiameterProfilePatchSchema));
  if (result.problem) return fieldError(result.problem.field, result.problem.message);
  return json(await getDiameterProfile(db(), ctx, id));
}

export function loader() {
  return methodNotAllowed();
}
