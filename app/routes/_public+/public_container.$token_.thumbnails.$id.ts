import { publicContainerThumbnailKey } from "~/models/public-container.server";
import { db } from "~/utils/db.server";
import { publicFile, publicNotFound, requirePublicGrant } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /public_container/{token}/thumbnails/{id}: the thumbnail of one live measurement of the shared container. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const grant = await requirePublicGrant(request, context, params.token, "container", { opened: false });
  if (!/^\d{1,18}$/.test(params.id ?? "")) publicNotFound();
  return publicFile(await publicContainerThumbnailKey(db(), grant, Number(params.id)));
}
