import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { containersOfBill, createContainers, getContainer } from "~/models/container.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { ContainersCreateSchema } from "~/utils/schemas/containers";
import { requireBill, requireContainersUser } from "./__containers-api.server";

/** GET /containers/containers?bol_id={id}: the bill's containers (404 for another organisation's bill). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, id } = await requireBill(request, new URL(request.url).searchParams.get("bol_id") ?? undefined);
  return json({ data: await withAppErrors(() => containersOfBill(db(), ctx, id)) });
}

/**
 * POST /containers/containers {container: {bill_of_lading_id, name: [...], tare_weight,
 * net_weight}}: one container per name; 201 with them.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireContainersUser(request);
  const body = await parseBody(request, ContainersCreateSchema);
  const ids = await withAppErrors(() => createContainers(db(), ctx, body));
  const data = [];
  for (const id of ids) data.push(await getContainer(db(), ctx, id));
  return json({ data }, { status: 201 });
}
