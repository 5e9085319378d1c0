import { type LoaderFunctionArgs } from "@remix-run/node";
import { getPhotoKey, PHOTO_VARIANTS, type PhotoVariant } from "~/models/measurement.server";
import { fileStorage, toWebStream } from "~/services/file-storage.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** A measurement photo rendition, for members of the measurement's organisation only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const variant = params.variant as PhotoVariant;
  if (!PHOTO_VARIANTS.includes(variant)) notFound();
  const key = await getPhotoKey(db(), ctx, id, variant);
  if (!key) notFound();
  const stat = await fileStorage().stat(key);
  if (!stat) notFound();
  const type = key.endsWith(".png") ? "image/png" : key.endsWith(".webp") ? "image/webp" : "image/jpeg";
  return new Response(toWebStream(await fileStorage().stream(key)), {
    headers: {
      "Content-Type": type,
      "Content-Length": String(stat.size),
      // Private: the URL is the same for every organisation member, the content is not public.
      "Cache-Control": "private, max-age=3600",
    },
  });
}
