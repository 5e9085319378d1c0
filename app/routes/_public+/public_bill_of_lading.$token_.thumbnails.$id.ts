import { publicContainerThumbnailKey } from "~/models/public-container.server";
import { db } from "~/utils/db.server";
import { publicFile, publicNotFound, requirePublicGrant } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /public_bill_of_lading/{token}/thumbnails/{id}: the thumbnail of one live measurement in a container of the shared bill. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const grant = await requirePublicGrant(request, context, params.token, "bill_of_lading", { opened: false });
  if (!/^\d{1,18}$/.test(params.id ?? "")) publicNotFound();
  return publicFile(await publicContainerThumbnailKey(db(), grant, Number(params.id)));
}
