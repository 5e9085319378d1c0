import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listBillOfLadings } from "~/models/container.server";
import { db } from "~/utils/db.server";
import { requireContainersUser } from "./__containers-api.server";

/** GET /containers/bill_of_ladings/list: the bills' ids and names (the lookup). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireContainersUser(request);
  return json({ data: await listBillOfLadings(db(), ctx) });
}
