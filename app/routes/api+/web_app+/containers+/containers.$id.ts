import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getContainer, patchContainer } from "~/models/container.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { ContainerPatchSchema } from "~/utils/schemas/containers";
import { requireContainer } from "./__containers-api.server";

/** GET /containers/containers/{id}: one container with its log count, volume and token. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, id } = await requireContainer(request, params.id);
  return json({ data: await getContainer(db(), ctx, id) });
}

/** PATCH /containers/containers/{id} {container: {name, seal_number, bill_of_lading_id, weight, width, height, tare_weight, net_weight}}. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireContainer(request, params.id);
  const patch = await parseBody(request, ContainerPatchSchema);
  await withAppErrors(() => patchContainer(db(), ctx, id, patch));
  return json({ data: await getContainer(db(), ctx, id) });
}
