import { loadPublicStorage } from "~/utils/public-pages.server";
import { publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /storages/public/{token}/{page}: a shared storage with one page of its measurements, for
 * anyone with the token: {storage: {..., measurements}, page, total_pages}. 404 for a token that
 * grants no storage or a page that does not exist, 429 over the address's limit.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view } = await loadPublicStorage(request, context, params.token, params.page);
  return publicJson({
    storage: { ...view.storage, measurements: view.measurements },
    page: view.page,
    total_pages: view.total_pages,
  });
}
