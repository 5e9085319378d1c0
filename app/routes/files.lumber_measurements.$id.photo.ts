import { type LoaderFunctionArgs } from "@remix-run/node";
import { getLumberPhotoKey } from "~/models/lumber.server";
import { fileStorage, toWebStream } from "~/services/file-storage.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** A lumber measurement's photo, for members of the measurement's organisation only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const key = await getLumberPhotoKey(db(), ctx, parseId(params.id));
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
