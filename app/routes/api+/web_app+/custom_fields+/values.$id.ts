import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getCustomFieldValue, updateCustomFieldValue } from "~/models/custom-field.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { CustomFieldValuePatchSchema } from "~/utils/schemas/custom-fields";

/** PATCH /api/web_app/custom_fields/values/{id} {custom_field_value{value, rank, archived}}. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  if (!(await getCustomFieldValue(db(), ctx, id))) notFound();
  requireFeature(ctx, "custom_fields");
  const { custom_field_value } = await parseBody(request, CustomFieldValuePatchSchema);
  await updateCustomFieldValue(db(), ctx, id, custom_field_value);
  return json(await getCustomFieldValue(db(), ctx, id));
}

export function loader() {
  return methodNotAllowed();
}
