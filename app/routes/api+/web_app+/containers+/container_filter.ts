import { json, type ActionFunctionArgs } from "@remix-run/node";
import { containerFilter } from "~/models/container.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { ContainerFilterSchema } from "~/utils/schemas/containers";
import { requireContainersUser } from "./__containers-api.server";

/**
 * POST /containers/container_filter with the bill-of-lading filter fields: {bill_of_ladings,
 * meta}, each bill with container_count, log_count, volume and its containers.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireContainersUser(request);
  const filter = await parseBody(request, ContainerFilterSchema);
  return json(await containerFilter(db(), ctx, filter));
}

export function loader() {
  return methodNotAllowed();
}
