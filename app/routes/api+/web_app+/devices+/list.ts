import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listDevices } from "~/models/device-admin.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /api/web_app/devices/list: id and name of the organisation's devices, a lookup for filters (any member). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json((await listDevices(db(), ctx)).map((d) => ({ id: d.id, name: d.name })));
}

export function action() {
  return methodNotAllowed();
}
