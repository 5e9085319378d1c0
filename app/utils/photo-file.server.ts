import { MEASUREMENT_KINDS, type MeasurementKind } from "~/models/measurement-kind.server";
import { getPhotoKey, PHOTO_VARIANTS, type PhotoVariant } from "~/models/measurement-photo.server";
import { fileResponse, fileStorage } from "~/services/file-storage.server";
import { notFound, parseId } from "./api.server";
import { requireApiUser } from "./auth.server";
import { db } from "./db.server";

/**
 * GET /files/{kind's folder}/{id}/{original|optimized|popup|thumbnail}: a measurement's photo
 * file, of any kind, for members of the measurement's organisation only (else 404).
 */
export async function measurementPhotoResponse(
  request: Request,
  kind: MeasurementKind | undefined,
  params: { id?: string; variant?: string },
) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const variant = params.variant as PhotoVariant;
  if (!kind || !(kind in MEASUREMENT_KINDS) || !PHOTO_VARIANTS.includes(variant)) notFound();
  const key = await getPhotoKey(db(), ctx, kind, id, variant);
  if (!key) notFound();
  // Private: the URL is the same for every organisation member, the content is not public.
  const response = await fileResponse(fileStorage(), key, { cacheControl: "private, max-age=3600", request });
  if (!response) notFound();
  return response;
}
