import { loadPublicMixedStackReport } from "~/utils/public-pages.server";
import { publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /mixed_stack_reports/public/{token}: a shared mixed stack report as its public page shows
 * it, for anyone with the token (no sign-in): {data}. 404 for a token that grants no report.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view } = await loadPublicMixedStackReport(request, context, params.token);
  return publicJson({ data: view });
}
