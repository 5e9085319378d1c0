import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listInvoices } from "~/models/billing.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** GET /api/web_app/subscription/invoices: the organisation's invoices, newest first (admins). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  return json(await listInvoices(db(), ctx));
}
