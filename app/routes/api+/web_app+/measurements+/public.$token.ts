import { loadPublicMeasurement } from "~/utils/public-pages.server";
import { publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /measurements/public/{token}: a shared measurement as its public page shows it, for anyone
 * with the token (no sign-in): {data}. 404 for a token that grants no measurement, 429 over the
 * address's limit.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view } = await loadPublicMeasurement(request, context, params.token);
  return publicJson({ data: view });
}
