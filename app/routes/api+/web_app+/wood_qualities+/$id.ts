import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getNamed, updateNamed } from "~/models/master-data.server";
import { methodNotAllowed, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { requireOwnRow } from "~/utils/master-data-api.server";
import { woodQualityPatch } from "~/utils/schemas/master-data";

/** PATCH /api/web_app/wood_qualities/{id} {name, archived}; DELETE archives it. Built-in rows: 403. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  await requireOwnRow(ctx, "wood_qualities", id);
  requireFeature(ctx, "timber_management");
  if (request.method === "DELETE") {
    await updateNamed(db(), ctx, "wood_qualities", id, { archived: true });
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  await updateNamed(db(), ctx, "wood_qualities", id, await parseBody(request, woodQualityPatch));
  return json(await getNamed(db(), ctx, "wood_qualities", id));
}

export function loader() {
  return methodNotAllowed();
}
