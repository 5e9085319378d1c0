import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { pricing } from "~/domain/billing";
import { requireApiUser } from "~/utils/auth.server";

/** GET /api/web_app/pricing: per package monthly and yearly price (EUR), picture plans. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  return json(pricing());
}
