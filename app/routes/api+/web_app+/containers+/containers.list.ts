import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listContainers } from "~/models/container.server";
import { db } from "~/utils/db.server";
import { requireContainersUser } from "./__containers-api.server";

/** GET /containers/containers/list: every container's id, name and bill (the lookup). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireContainersUser(request);
  return json({ data: await listContainers(db(), ctx) });
}
