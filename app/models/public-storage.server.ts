import type { DB } from "~/utils/db.server";
import { translateLookups } from "~/utils/lookup-name";
import { publicLinksOf, type PublicGrant } from "./public-link.server";
import type { TFunction } from "i18next";

// What a shared storage shows its recipient (/public_storage/{token}, GET
// /api/web_app/storages/public/{token}/{page}): its name, state, location and totals, and its
// live measurements a page at a time, each with its thumbnail and figures. A measurement links
// to its own public page only when it is shared itself: the storage's token grants the storage's
// figures, not each measurement's photo and logs (docs/decisions/013-public-links.md).

export const PUBLIC_STORAGE_PAGE_SIZE = 20;

type Grant = Pick<PublicGrant, "organizationId" | "recordId" | "organizationName" | "vmuEnabled" | "timeZone">;

export interface PublicStorageView {
  storage: {
    name: string;
    storage_state_id: number;
    latitude: number | null;
    longitude: number | null;
    logs_count: number;
    /** Solid m³: the sum of the measurements' volumes. */
    volume: { value: number; unit: "m^3" };
    measurements_count: number;
    organization: { name: string };
    time_zone: string;
  };
  page: number;
  total_pages: number;
  measurements: Array<{
    id: number;
    taken_at: Date;
    logs_count: number;
    volume: { value: number; unit: "m^3" };
    log_length: { value: number; unit: "m" } | null;
    wood_type: string | null;
    photo_thumbnail: string | null;
    /** SHA-256 of the original photo taken at upload (decision 024), when recorded. */
    photo_sha256: string | null;
    /** Its own public page, when the measurement is shared itself. */
    public_url: string | null;
  }>;
}

/** A measurement of the shared storage whose thumbnail the storage's page shows, or undefined. */
export async function publicStorageThumbnailKey(
  db: DB,
  grant: Pick<PublicGrant, "organizationId" | "recordId">,
  measurementId: number,
) {
  const row = await db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .select("m.photo_thumbnail_key")
    .where("m.id", "=", measurementId)
    .where("m.storage_id", "=", grant.recordId)
    .where("m.organization_id", "=", grant.organizationId)
    .where("m.deleted_at", "is", null)
    .where("s.deleted_at", "is", null)
    .executeTakeFirst();
  return row?.photo_thumbnail_key ?? undefined;
}

/** The shared storage with one page of its measurements; undefined when it is gone or the page does not exist. */
export async function readPublicStorage(
  db: DB,
  grant: Grant,
  token: string,
  page: number,
  t: TFunction,
): Promise<PublicStorageView | undefined> {
  const storage = await db
    .selectFrom("storages")
    .select(["id", "name", "storage_state_id", "latitude", "longitude"])
    .where("id", "=", grant.recordId)
    .where("organization_id", "=", grant.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!storage) return undefined;
  const live = db
    .selectFrom("measurements")
    .where("organization_id", "=", grant.organizationId)
    .where("storage_id", "=", storage.id)
    .where("deleted_at", "is", null);
  const totals = await live
    .select((eb) => [
      eb.fn.countAll<number>().as("count"),
      eb.fn.sum<number>("logs_count").as("logs"),
      eb.fn.sum<number>("volume").as("volume"),
    ])
    .executeTakeFirstOrThrow();
  const count = Number(totals.count);
  const totalPages = Math.max(1, Math.ceil(count / PUBLIC_STORAGE_PAGE_SIZE));
  if (page > totalPages) return undefined;
  const [rows, woodTypes] = await Promise.all([
    live
      .select([
        "id",
        "taken_at",
        "logs_count",
        "volume",
        "log_length",
        "wood_type_id",
        "photo_thumbnail_key",
        "photo_sha256",
      ])
      .orderBy("taken_at", "desc")
      .orderBy("id", "desc")
      .limit(PUBLIC_STORAGE_PAGE_SIZE)
      .offset((page - 1) * PUBLIC_STORAGE_PAGE_SIZE)
      .execute(),
    db
      .selectFrom("wood_types")
      .select(["id", "name", "organization_id"])
      .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", grant.organizationId)]))
      .execute(),
  ]);
  const links = await publicLinksOf(
    db,
    { organizationId: grant.organizationId, organization: { vmu_enabled: grant.vmuEnabled } },
    "measurement",
    rows.map((r) => r.id),
  );
  const species = new Map(translateLookups(t, "wood_types", woodTypes).map((w) => [w.id, w.name]));
  return {
    storage: {
      name: storage.name,
      storage_state_id: storage.storage_state_id,
      latitude: storage.latitude,
      longitude: storage.longitude,
      logs_count: Number(totals.logs ?? 0),
      volume: { value: Number(totals.volume ?? 0), unit: "m^3" },
      measurements_count: count,
      organization: { name: grant.organizationName },
      time_zone: grant.timeZone,
    },
    page,
    total_pages: totalPages,
    measurements: rows.map((m) => ({
      id: m.id,
      taken_at: m.taken_at,
      logs_count: m.logs_count,
      volume: { value: m.volume, unit: "m^3" },
      log_length: m.log_length === null ? null : { value: m.log_length, unit: "m" },
      wood_type: m.wood_type_id === null ? null : (species.get(m.wood_type_id) ?? null),
      photo_thumbnail: m.photo_thumbnail_key ? `/public_storage/${token}/thumbnails/${m.id}` : null,
      photo_sha256: m.photo_sha256,
      public_url: links.get(m.id)?.path ?? null,
    })),
  };
}
