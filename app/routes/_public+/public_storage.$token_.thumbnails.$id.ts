import { publicStorageThumbnailKey } from "~/models/public-storage.server";
import { db } from "~/utils/db.server";
import { publicFile, publicNotFound, requirePublicGrant } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /public_storage/{token}/thumbnails/{id}: the thumbnail of one measurement of the shared storage. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const grant = await requirePublicGrant(request, context, params.token, "storage", { opened: false });
  if (!/^\d{1,18}$/.test(params.id ?? "")) publicNotFound();
  return publicFile(await publicStorageThumbnailKey(db(), grant, Number(params.id)));
}
