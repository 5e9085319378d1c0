import { createHash } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { MEASUREMENT_KINDS, type MeasurementKind } from "~/models/measurement-kind.server";
import {
  findPhotoOriginal,
  photoStorageKey,
  recordOriginalPhoto,
  recordRenditions,
  RENDITION_NAMES,
  type RenditionName,
} from "~/models/measurement-photo.server";
import type { DB } from "~/utils/db.server";
import { ValidationError } from "~/utils/errors";
import type { FileStorage } from "./file-storage.server";

// Measurement photos of every kind, on the file side: checking an upload, keeping the original
// as it came, and the renditions the screens use (made by the process_photo job). The rows'
// side is models/measurement-photo.server.ts.

export const PHOTO_LIMITS = {
  maxBytes: 30 * 1024 * 1024,
  // Refuses decompression bombs: a small file that would expand past 80 megapixels.
  maxPixels: 80_000_000,
  formats: ["jpeg", "png", "webp"] as const,
};

export const RENDITIONS: Record<RenditionName, { size: number; fit: "inside" | "cover"; quality: number }> = {
  optimized: { size: 2560, fit: "inside", quality: 82 },
  popup: { size: 1280, fit: "inside", quality: 80 },
  thumbnail: { size: 160, fit: "cover", quality: 75 },
};

export class PhotoRejectedError extends ValidationError {
  constructor(public reason: "not_an_image" | "too_large" | "too_many_pixels" | "unsupported_format") {
    super({ photo: [`timber:errors.photo.${reason}`] });
  }
}

/** What the photo is; refuses what is not a JPEG, PNG or WebP image within the limits. */
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
  // The header alone accepts a cut-off file that every rendition job then fails on: decode the
  // whole image now (shrunk while decoding, so it stays quick) and refuse what ends too early.
  try {
    await sharp(data, { limitInputPixels: PHOTO_LIMITS.maxPixels, failOn: "truncated" })
      .resize(64, 64, { fit: "inside" })
      .toBuffer();
  } catch {
    throw new PhotoRejectedError("not_an_image");
  }
  return { format: meta.format, width: meta.width, height: meta.height };
}

/** Stores the original of a measurement of `kind` and marks its renditions pending; the caller enqueues the job. */
export async function storeOriginalPhoto(
  db: DB,
  storage: FileStorage,
  kind: MeasurementKind,
  input: { organizationId: number; measurementId: number; data: Buffer; fileName: string },
) {
  const info = await inspectPhoto(input.data);
  const ext = info.format === "jpeg" ? "jpg" : info.format;
  const key = photoStorageKey(kind, input.organizationId, input.measurementId, `original.${ext}`);
  // The original is stored byte for byte as uploaded; its SHA-256 is the proof (decision 024).
  const sha256 = createHash("sha256").update(input.data).digest("hex");
  await storage.put(key, input.data);
  await recordOriginalPhoto(db, kind, { ...input, key, width: info.width, height: info.height, sha256 });
  return { key, sha256, ...info };
}

/**
 * Recomputes the SHA-256 of a measurement's stored original and compares it with the one taken
 * at upload: `ok` only when both exist and are equal. Renditions are derived files (resized,
 * recompressed) and never verified against it. Undefined for another organisation's measurement.
 */
export async function verifyOriginalPhoto(
  db: DB,
  storage: FileStorage,
  ctx: { organizationId: number },
  kind: MeasurementKind,
  measurementId: number,
) {
  const row = await db
    .selectFrom(MEASUREMENT_KINDS[kind].table)
    .select(["photo_key", "photo_sha256"])
    .where("id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  let actual: string | null = null;
  if (row.photo_key && (await storage.stat(row.photo_key)))
    actual = createHash("sha256")
      .update(await storage.get(row.photo_key))
      .digest("hex");
  return {
    expected: row.photo_sha256,
    actual,
    ok: row.photo_sha256 !== null && actual !== null && actual === row.photo_sha256,
    checked_at: new Date(),
  };
}

/** One rendition of an original: JPEG, turned upright, never enlarged past the original. */
export async function renderRendition(original: Buffer, name: RenditionName) {
  const r = RENDITIONS[name];
  return sharp(original, { limitInputPixels: PHOTO_LIMITS.maxPixels })
    .rotate()
    .resize(r.size, r.size, { fit: r.fit, withoutEnlargement: r.fit === "inside" })
    .jpeg({ quality: r.quality, mozjpeg: true })
    .toBuffer();
}

/** Makes the optimized, popup and thumbnail renditions of a measurement's photo; safe to run again. */
export async function makeRenditions(db: DB, storage: FileStorage, kind: MeasurementKind, measurementId: number) {
  const row = await findPhotoOriginal(db, kind, measurementId);
  if (!row?.photo_key) return null;
  const original = await storage.get(row.photo_key);
  const keys = {} as Record<RenditionName, string>;
  for (const name of RENDITION_NAMES) {
    keys[name] = photoStorageKey(kind, row.organization_id, row.id, `${name}.jpg`);
    await storage.put(keys[name], await renderRendition(original, name));
  }
  await recordRenditions(db, kind, row.id, keys);
  return { organizationId: row.organization_id, measurementId: row.id, keys };
}
