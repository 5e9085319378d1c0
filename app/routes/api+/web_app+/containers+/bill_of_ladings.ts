import { json, type ActionFunctionArgs } from "@remix-run/node";
import { createBillOfLading, getBillOfLading } from "~/models/container.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { BillOfLadingCreateSchema } from "~/utils/schemas/containers";
import { requireContainersUser } from "./__containers-api.server";

/** POST /containers/bill_of_ladings {bill_of_lading: {name}}: 201 with the bill (and its token). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireContainersUser(request);
  const body = await parseBody(request, BillOfLadingCreateSchema);
  const bill = await withAppErrors(async () => getBillOfLading(db(), ctx, await createBillOfLading(db(), ctx, body)));
  return json({ data: bill }, { status: 201 });
}

export function loader() {
  return methodNotAllowed();
}
