import { json, type ActionFunctionArgs } from "@remix-run/node";
import { addCustomFieldValue, getCustomField, getCustomFieldValue } from "~/models/custom-field.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { CustomFieldValueSchema } from "~/utils/schemas/custom-fields";

/** POST /api/web_app/custom_fields/{id}/values {custom_field_value{value, rank}}. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const fieldId = parseId(params.id);
  if (!(await getCustomField(db(), ctx, fieldId))) notFound();
  requireFeature(ctx, "custom_fields");
  const { custom_field_value } = await parseBody(request, CustomFieldValueSchema);
  const id = await addCustomFieldValue(db(), ctx, fieldId, custom_field_value);
  if (id === null) notFound();
  return json(await getCustomFieldValue(db(), ctx, id), { status: 201 });
}

export function loader() {
  return methodNotAllowed();
}
