import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getCustomField, updateCustomField } from "~/models/custom-field.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { CustomFieldPatchSchema } from "~/utils/schemas/custom-fields";

/** PATCH /api/web_app/custom_fields/{id} {custom_field{name, archived, searchable, required}}. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  if (!(await getCustomField(db(), ctx, id))) notFound();
  requireFeature(ctx, "custom_fields");
  const { custom_field } = await parseBody(request, CustomFieldPatchSchema);
  await updateCustomField(db(), ctx, id, custom_field);
  return json(await getCustomField(db(), ctx, id));
}

export function loader() {
  return methodNotAllowed();
}
