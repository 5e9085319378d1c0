import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createCustomField, DuplicateKeyError, getCustomField, listCustomFields } from "~/models/custom-field.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { CustomFieldCreateSchema } from "~/utils/schemas/custom-fields";

/** GET /api/web_app/custom_fields: every member reads them (the measurement forms need them). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listCustomFields(db(), ctx));
}

/** POST /api/web_app/custom_fields {custom_field{name, source_key, data_type, key, searchable, required}}: admins, custom_fields feature. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  requireFeature(ctx, "custom_fields");
  const { custom_field } = await parseBody(request, CustomFieldCreateSchema);
  try {
    const id = await createCustomField(db(), ctx, custom_field);
    return json(await getCustomField(db(), ctx, id), { status: 201 });
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    return json(
      { error: "validation_failed", errors: { "custom_field.key": ["accounts:customFields.keyTaken"] } },
      { status: 422 },
    );
  }
}
