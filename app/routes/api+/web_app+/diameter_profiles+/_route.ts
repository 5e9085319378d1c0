import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createDiameterProfile, getDiameterProfile, listDiameterProfiles } from "~/models/master-data.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { fieldError } from "~/utils/master-data-api.server";
import { DiameterProfileCreateSchema } from "~/utils/schemas/master-data";

/** GET /api/web_app/diameter_profiles (diameter_profiles feature). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, "diameter_profiles");
  return json(await listDiameterProfiles(db(), ctx));
}

/** POST /api/web_app/diameter_profiles diameter_profile{name, default_cull_id, wood_characteristic_ids}: bounded, non-overlapping assortments. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  requireFeature(ctx, "diameter_profiles");
  const input = await parseBody(request, DiameterProfileCreateSchema);
  const created = await createDiameterProfile(db(), ctx, input);
  if (created.problem) return fieldError(created.problem.field, created.problem.message);
  return json(await getDiameterProfile(db(), ctx, created.id!), { status: 201 });
}
