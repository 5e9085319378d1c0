import { type ActionFunctionArgs } from "@remix-run/node";
import { deleteStorage, getStorage } from "~/models/storage.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";

/** DELETE /storages/{id}: soft delete with its measurements; the default storage answers 422. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const deleted = await withAppErrors(async () => {
    // An outsider learns nothing: 404 before the admin check.
    if (!(await getStorage(db(), ctx, id))) notFound();
    requireOrgAdmin(ctx);
    return deleteStorage(db(), ctx, id);
  });
  if (!deleted) notFound();
  return new Response(null, { status: 204 });
}

export function loader() {
  return methodNotAllowed();
}
