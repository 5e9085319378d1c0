import { loadPublicBillOfLading } from "~/utils/public-pages.server";
import { publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /containers/bill_of_ladings/public/{token}: a shared bill of lading, its containers and
 * their measurements as its public page shows them, for anyone with the token (no sign-in):
 * {data}. 404 for a token that grants no bill.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view } = await loadPublicBillOfLading(request, context, params.token);
  return publicJson({ data: view });
}
