import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listDevices, serializeDevice } from "~/models/device-admin.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /api/web_app/devices[?q=]: the organisation's devices with access and owner (admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const q = new URL(request.url).searchParams.get("q") ?? undefined;
  return json((await listDevices(db(), ctx, { q })).map(serializeDevice));
}

export function action() {
  return methodNotAllowed();
}
