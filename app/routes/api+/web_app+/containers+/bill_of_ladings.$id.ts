import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getBillOfLading, patchBillOfLading } from "~/models/container.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { BillOfLadingPatchSchema } from "~/utils/schemas/containers";
import { requireBill } from "./__containers-api.server";

/** GET /containers/bill_of_ladings/{id}: the bill with its containers and summary. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, id } = await requireBill(request, params.id);
  return json({ data: await getBillOfLading(db(), ctx, id) });
}

/**
 * PATCH /containers/bill_of_ladings/{id} with name, token (any value rotates the public link),
 * contract_id, wood_characteristic_id or archived.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireBill(request, params.id);
  const patch = await parseBody(request, BillOfLadingPatchSchema);
  await withAppErrors(() => patchBillOfLading(db(), ctx, id, patch));
  return json({ data: await getBillOfLading(db(), ctx, id) });
}
