import sharp, { type Metadata } from "sharp";
import type { FileStorage } from "~/services/file-storage.server";
import type { DB } from "~/utils/db.server";

// A measurement photo: the original is kept as uploaded; a job makes the renditions the screens
// use. photo_status follows the job (0 pending, 1 done, 3 failed) so nothing stays pending unseen.

export const PHOTO_LIMITS = {
  maxBytes: 30 * 1024 * 1024,
  // Refuses decompression bombs: a small file that would expand past 80 megapixels.
  maxPixels: 80_000_000,
  formats: ["jpeg", "png", "webp"] as const,
};

export const RENDITIONS = {
  optimized: { size: 2560, fit: "inside" as const, quality: 82 },
  popup: { size: 1280, fit: "inside" as const, quality: 80 },
  thumbnail: { size: 160, fit: "cover" as const, quality: 75 },
};

export class PhotoRejectedError extends Error {
  constructor(public reason: "not_an_image" | "too_large" | "too_many_pixels" | "unsupported_format") {
    super(reason);
  }
}

export async function inspectPhoto(data: Buffer) {
  if (data.byteLength > PHOTO_LIMITS.maxBytes) throw new PhotoRejectedError("too_large");
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: PHOTO_LIMITS.maxPixels }).metadata();
  } catch {
    throw new PhotoRejectedError("not_an_image");
  }
  if (!meta.format || !(PHOTO_LIMITS.formats as readonly string[]).includes(meta.format)) {
    throw new PhotoRejectedError("unsupported_format");
  }
  if (!meta.width || !meta.height) throw new PhotoRejectedError("not_an_image");
  if (meta.width * meta.height > PHOTO_LIMITS.maxPixels) throw new PhotoRejectedError("too_many_pixels");
  return { format: meta.format, width: meta.width, height: meta.height };
}

function photoKey(organizationId: number, measurementId: number, name: string) {
  return `organizations/${organizationId}/measurements/${measurementId}/${name}`;
}

/** Stores the original and marks the renditions pending; the caller enqueues the job. */
export async function storeOriginalPhoto(
  db: DB,
  storage: FileStorage,
  input: { organizationId: number; measurementId: number; data: Buffer; fileName: string },
) {
  const info = await inspectPhoto(input.data);
  const ext = info.format === "jpeg" ? "jpg" : info.format;
  const key = photoKey(input.organizationId, input.measurementId, `original.${ext}`);
  await storage.put(key, input.data);
  await db
    .updateTable("measurements")
    .set({
      photo_key: key,
      photo_file_name: input.fileName.slice(0, 255),
      photo_width: info.width,
      photo_height: info.height,
      photo_status: 0,
      photo_error: null,
      photo_enqueued_at: new Date(),
      updated_at: new Date(),
    })
    .where("id", "=", input.measurementId)
    .where("organization_id", "=", input.organizationId)
    .execute();
  return { key, ...info };
}

/** Makes the optimized, popup and thumbnail renditions; safe to run again. */
export async function makeRenditions(db: DB, storage: FileStorage, measurementId: number) {
  const row = await db
    .selectFrom("measurements")
    .select(["id", "organization_id", "photo_key"])
    .where("id", "=", measurementId)
    .executeTakeFirst();
  if (!row?.photo_key) return null;
  const original = await storage.get(row.photo_key);
  const keys: Record<keyof typeof RENDITIONS, string> = { optimized: "", popup: "", thumbnail: "" };
  for (const [name, r] of Object.entries(RENDITIONS) as [keyof typeof RENDITIONS, (typeof RENDITIONS)[keyof typeof RENDITIONS]][]) {
    const out = await sharp(original, { limitInputPixels: PHOTO_LIMITS.maxPixels })
      .rotate()
      .resize(r.size, r.size, { fit: r.fit, withoutEnlargement: r.fit === "inside" })
      .jpeg({ quality: r.quality, mozjpeg: true })
      .toBuffer();
    keys[name] = photoKey(row.organization_id, row.id, `${name}.jpg`);
    await storage.put(keys[name], out);
  }
  await db
    .updateTable("measurements")
    .set({
      photo_optimized_key: keys.optimized,
      photo_popup_key: keys.popup,
      photo_thumbnail_key: keys.thumbnail,
      photo_status: 1,
      photo_error: null,
    })
    .where("id", "=", row.id)
    .execute();
  return { organizationId: row.organization_id, measurementId: row.id, keys };
}

export async function markPhotoFailed(db: DB, measurementId: number, reason: string) {
  await db
    .updateTable("measurements")
    .set({ photo_status: 3, photo_error: reason.slice(0, 512) })
    .where("id", "=", measurementId)
    .execute();
}

/** Photos still pending long after they were enqueued: their job was lost or the worker died. */
export async function findStalePhotos(db: DB, enqueuedBefore: Date, limit = 100) {
  return db
    .selectFrom("measurements")
    .select(["id", "photo_attempts"])
    .where("photo_status", "=", 0)
    .where("photo_key", "is not", null)
    .where("photo_enqueued_at", "<", enqueuedBefore)
    .orderBy("photo_enqueued_at")
    .limit(limit)
    .execute();
}

export async function notePhotoReenqueued(db: DB, measurementId: number) {
  await db
    .updateTable("measurements")
    .set((eb) => ({ photo_enqueued_at: new Date(), photo_attempts: eb("photo_attempts", "+", 1) }))
    .where("id", "=", measurementId)
    .execute();
}
