import { loadPublicContainer } from "~/utils/public-pages.server";
import { publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /containers/container/public/{token}: a shared container as its public page shows it, for
 * anyone with the token (no sign-in): {data}. 404 for a token that grants no container.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view } = await loadPublicContainer(request, context, params.token);
  return publicJson({ data: view });
}
