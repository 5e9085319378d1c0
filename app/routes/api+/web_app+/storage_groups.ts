import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listStorageGroups } from "~/models/user-admin.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /api/web_app/storage_groups: the organisation's storage groups (a lookup of the role panel). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listStorageGroups(db(), ctx));
}

export function action() {
  return methodNotAllowed();
}
