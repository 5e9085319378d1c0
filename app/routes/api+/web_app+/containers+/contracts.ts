import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listContracts } from "~/models/container.server";
import { db } from "~/utils/db.server";
import { requireContainersUser } from "./__containers-api.server";

/** GET /containers/contracts: the organisation's contracts (the lookup of a bill's contract_id). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireContainersUser(request);
  return json({ data: await listContracts(db(), ctx) });
}
