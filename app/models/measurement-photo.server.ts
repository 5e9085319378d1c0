import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { MEASUREMENT_KINDS, type MeasurementKind } from "./measurement-kind.server";

// A measurement photo's row side, for every kind: the original is kept as uploaded; a job makes
// the renditions the screens use (services/photos.server.ts). photo_status follows the job
// (0 pending, 1 done, 3 failed) so nothing stays pending unseen.

export const PHOTO_VARIANTS = ["original", "optimized", "popup", "thumbnail"] as const;
export type PhotoVariant = (typeof PHOTO_VARIANTS)[number];
export const RENDITION_NAMES = ["optimized", "popup", "thumbnail"] as const;
export type RenditionName = (typeof RENDITION_NAMES)[number];

const VARIANT_COLUMN = {
  original: "photo_key",
  optimized: "photo_optimized_key",
  popup: "photo_popup_key",
  thumbnail: "photo_thumbnail_key",
} as const;

type Ctx = Pick<AuthContext, "organizationId">;

const tableOf = (kind: MeasurementKind) => MEASUREMENT_KINDS[kind].table;

/** Where a photo file of a measurement is kept in the file storage. */
export function photoStorageKey(kind: MeasurementKind, organizationId: number, measurementId: number, name: string) {
  return `organizations/${organizationId}/${MEASUREMENT_KINDS[kind].filesFolder}/${measurementId}/${name}`;
}

/** The URL a member of the organisation reads a photo file at (app/routes/files.*). */
export function photoUrl(kind: MeasurementKind, measurementId: number, variant: PhotoVariant) {
  return `/files/${MEASUREMENT_KINDS[kind].filesFolder}/${measurementId}/${variant}`;
}

/** The rendition screens show: the optimized one once the photo job made it, else the original. */
export function screenPhotoUrl(
  kind: MeasurementKind,
  m: { id: number; photo_key: string | null; photo_optimized_key: string | null },
) {
  return m.photo_optimized_key
    ? photoUrl(kind, m.id, "optimized")
    : m.photo_key
      ? photoUrl(kind, m.id, "original")
      : null;
}

/** Records a stored original and marks the renditions pending; the caller enqueues the job. */
export async function recordOriginalPhoto(
  db: DB,
  kind: MeasurementKind,
  input: {
    organizationId: number;
    measurementId: number;
    key: string;
    fileName: string;
    width: number;
    height: number;
    /** The original's SHA-256 (hex), kept to prove later that the stored file is the uploaded one. */
    sha256?: string;
  },
) {
  await db
    .updateTable(tableOf(kind))
    .set({
      ...(input.sha256 ? { photo_sha256: input.sha256 } : {}),
      photo_key: input.key,
      photo_file_name: input.fileName.slice(0, 255),
      photo_width: input.width,
      photo_height: input.height,
      photo_status: 0,
      photo_error: null,
      photo_enqueued_at: new Date(),
      updated_at: new Date(),
    })
    .where("id", "=", input.measurementId)
    .where("organization_id", "=", input.organizationId)
    .execute();
}

/** The original of a measurement's photo, for the renditions job (which works by id). */
export async function findPhotoOriginal(db: DB, kind: MeasurementKind, measurementId: number) {
  return db
    .selectFrom(tableOf(kind))
    .select(["id", "organization_id", "photo_key"])
    .where("id", "=", measurementId)
    .executeTakeFirst();
}

export async function recordRenditions(
  db: DB,
  kind: MeasurementKind,
  measurementId: number,
  keys: Record<RenditionName, string>,
) {
  await db
    .updateTable(tableOf(kind))
    .set({
      photo_optimized_key: keys.optimized,
      photo_popup_key: keys.popup,
      photo_thumbnail_key: keys.thumbnail,
      photo_status: 1,
      photo_error: null,
    })
    .where("id", "=", measurementId)
    .execute();
}

export async function markPhotoFailed(db: DB, kind: MeasurementKind, measurementId: number, reason: string) {
  await db
    .updateTable(tableOf(kind))
    .set({ photo_status: 3, photo_error: reason.slice(0, 512) })
    .where("id", "=", measurementId)
    .execute();
}

/** Photos still pending long after they were enqueued: their job was lost or the worker died. */
export async function findStalePhotos(db: DB, kind: MeasurementKind, enqueuedBefore: Date, limit = 100) {
  return db
    .selectFrom(tableOf(kind))
    .select(["id", "photo_attempts"])
    .where("photo_status", "=", 0)
    .where("photo_key", "is not", null)
    .where("photo_enqueued_at", "<", enqueuedBefore)
    .orderBy("photo_enqueued_at")
    .limit(limit)
    .execute();
}

export async function notePhotoReenqueued(db: DB, kind: MeasurementKind, measurementId: number) {
  await db
    .updateTable(tableOf(kind))
    .set((eb) => ({ photo_enqueued_at: new Date(), photo_attempts: eb("photo_attempts", "+", 1) }))
    .where("id", "=", measurementId)
    .execute();
}

/**
 * The storage key of one photo file: undefined when the measurement is not the caller's
 * organisation's, null when it has no such file (yet).
 */
export async function getPhotoKey(
  db: DB,
  ctx: Ctx,
  kind: MeasurementKind,
  measurementId: number,
  variant: PhotoVariant,
) {
  const row = await db
    .selectFrom(tableOf(kind))
    .select(VARIANT_COLUMN[variant])
    .where("id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  return row ? ((row as Record<string, string | null>)[VARIANT_COLUMN[variant]] ?? null) : undefined;
}
