import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listStorages } from "~/models/lookup.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listStorages(db(), ctx));
}
