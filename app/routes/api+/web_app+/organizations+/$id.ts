import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getOrganization, serializeOrganization, updateOrganization } from "~/models/organization.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { OrganizationPatchSchema } from "~/utils/schemas/admin";

/** PATCH /api/web_app/organizations/{id}: name, address, vat_code (EU pattern), city, postal_code, invoice_email; or default_storage_id, contact_person, phone. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  if (id !== ctx.organizationId) notFound();
  requireOrgAdmin(ctx);
  const changes = await parseBody(request, OrganizationPatchSchema);
  const result = await updateOrganization(db(), ctx, id, changes);
  if (result === "not_found") notFound();
  if (result === "invalid_storage") {
    return json(
      { error: "validation_failed", errors: { default_storage_id: ["accounts:organization.storageInvalid"] } },
      { status: 422 },
    );
  }
  return json(serializeOrganization((await getOrganization(db(), id))!));
}

export function loader() {
  return methodNotAllowed();
}
