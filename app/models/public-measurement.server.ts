import type { Metrology } from "#db/schema";
import { cubicMetresToFormulaUnit, type LogVolumeUnit } from "~/domain";
import type { DB } from "~/utils/db.server";
import { formulaName } from "~/utils/lookup-name";
import { listTimberLookups } from "./timber-lookups.server";
import { timberSummary } from "./timber-summary.server";
import { getMeasurementLogs, getMeasurementReferences, getMeasurementRow } from "./timber.server";
import type { PublicGrant } from "./public-link.server";
import type { TFunction } from "i18next";

// What a shared timber measurement shows its recipient (/public_measurement/{token},
// /vmu_public/{token}, GET /api/web_app/measurements/public/{token}, the .jpeg): its figures,
// photo, logs and tables, and nothing else of the organisation. No ids but the measurement's own
// (logs, assortments and culls are named, not numbered), no prices, people, devices or comments;
// the metrology only for vmu organisations (their public form shows it).

type Grant = Pick<PublicGrant, "organizationId" | "recordId" | "organizationName" | "vmuEnabled" | "timeZone">;

export interface PublicMeasurementView {
  id: number;
  organization: { name: string };
  manual: boolean;
  taken_at: Date;
  /** The sharer's time zone: times on the page are shown in it. */
  time_zone: string;
  volume: { value: number; unit: LogVolumeUnit };
  logs_count: number;
  /** cm; null without logs. */
  average_diameter: number | null;
  wood_type: string | null;
  wood_quality: string | null;
  assortment: string | null;
  log_length: { value: number; unit: "m" } | null;
  volume_formula: { key: string; name: string };
  storage: { name: string; latitude: number | null; longitude: number | null };
  latitude: number | null;
  longitude: number | null;
  photo: { url: string; width: number; height: number } | null;
  /** The original photo's SHA-256 taken at upload (docs/decisions/024-trust.md); the page shows a rendition. */
  photo_sha256: string | null;
  /** The downloadable picture with the overlay and a caption burnt in. */
  jpeg_url: string;
  logs: Array<{ x: number; y: number; r: number; d: number; modified: boolean }>;
  references: Array<{ x1: number; y1: number; x2: number; y2: number }>;
  logs_sheet: {
    logs: Array<{ diameter: number; log_length: number; logs_count: number; volume: number }>;
    summary: {
      average_diameter: number | null;
      total_logs: number;
      diameter_unit: "cm";
      length_unit: "m";
      volume_unit: LogVolumeUnit;
    };
  };
  /** name null: logs no assortment takes. */
  by_assortment: Array<{ name: string | null; logs_count: number; volume: number }>;
  by_cull: Array<{ name: string; logs_count: number; volume: number }>;
  metrology?: Metrology | null;
}

/** The rendition a page shows: popup (1280 px) when made, else the optimized one, else the original. */
export function publicPhotoKey(m: {
  photo_key: string | null;
  photo_optimized_key: string | null;
  photo_popup_key: string | null;
}) {
  return m.photo_popup_key ?? m.photo_optimized_key ?? m.photo_key;
}

export const publicMeasurementPaths = (token: string) => ({
  photo: `/public_measurement/${token}/photo`,
  jpeg: `/public_measurement/${token}.jpeg`,
});

/** The shared measurement, or undefined when it is gone (deleted since it was shared). */
export async function readPublicMeasurement(
  db: DB,
  grant: Grant,
  token: string,
  t: TFunction,
): Promise<PublicMeasurementView | undefined> {
  const ctx = { organizationId: grant.organizationId };
  const m = await getMeasurementRow(db, ctx, grant.recordId);
  if (!m) return undefined;
  const [storage, logs, references, lookups] = await Promise.all([
    db
      .selectFrom("storages")
      .select(["name", "latitude", "longitude"])
      .where("id", "=", m.storage_id)
      .where("organization_id", "=", grant.organizationId)
      .executeTakeFirst(),
    getMeasurementLogs(db, ctx, m.id),
    getMeasurementReferences(db, ctx, m.id),
    listTimberLookups(db, ctx, t),
  ]);
  if (!storage) return undefined;
  const summary = timberSummary(m, logs, lookups);
  const nameOf = (list: Array<{ id: number; name: string }>, id: number | string | null) =>
    id === null ? null : (list.find((x) => x.id === Number(id))?.name ?? null);
  const culls = lookups.culls.map((c) => ({ id: c.id, name: c.reason }));
  const paths = publicMeasurementPaths(token);
  const photoKey = publicPhotoKey(m);
  return {
    id: m.id,
    organization: { name: grant.organizationName },
    manual: m.type === "manual",
    taken_at: m.taken_at,
    time_zone: grant.timeZone,
    volume: cubicMetresToFormulaUnit(m.volume, m.volume_formula),
    logs_count: m.logs_count,
    average_diameter: summary.logCount ? summary.averageDiameterCm : null,
    wood_type: nameOf(lookups.woodTypes, m.wood_type_id),
    wood_quality: nameOf(lookups.woodQualities, m.wood_quality_id),
    assortment: nameOf(lookups.assortments, m.assortment_id),
    log_length: m.log_length === null ? null : { value: m.log_length, unit: "m" },
    volume_formula: { key: m.volume_formula, name: formulaName(t, m.volume_formula) },
    storage,
    latitude: m.latitude,
    longitude: m.longitude,
    photo:
      photoKey && m.photo_width && m.photo_height
        ? { url: paths.photo, width: m.photo_width, height: m.photo_height }
        : null,
    photo_sha256: m.photo_sha256,
    jpeg_url: paths.jpeg,
    logs: logs
      .filter((l) => !l.is_deleted)
      .map((l) => ({ x: l.x, y: l.y, r: l.r, d: l.d, modified: l.modified_at !== null })),
    references: references.map(({ x1, y1, x2, y2 }) => ({ x1, y1, x2, y2 })),
    logs_sheet: {
      logs: summary.logsSheet.map((r) => ({
        diameter: r.diameterCm,
        log_length: r.lengthM,
        logs_count: r.count,
        volume: r.volume,
      })),
      summary: {
        average_diameter: summary.logCount ? summary.averageDiameterCm : null,
        total_logs: summary.logCount,
        diameter_unit: "cm",
        length_unit: "m",
        volume_unit: summary.unit,
      },
    },
    by_assortment: summary.byAssortment.map((r) => ({
      name: nameOf(lookups.assortments, r.assortmentId),
      logs_count: r.count,
      volume: r.volume,
    })),
    by_cull: summary.byCull.map((r) => ({
      name: nameOf(culls, r.cullId) ?? "",
      logs_count: r.count,
      volume: r.volume,
    })),
    ...(grant.vmuEnabled ? { metrology: m.metrology } : {}),
  };
}

/** What the .jpeg needs beyond the view: the stored photo to draw on, and the row's version. */
export async function publicMeasurementPhotoSource(db: DB, grant: Pick<PublicGrant, "organizationId" | "recordId">) {
  return db
    .selectFrom("measurements")
    .select(["id", "photo_key", "photo_optimized_key", "photo_popup_key", "photo_width", "photo_height", "updated_at"])
    .where("id", "=", grant.recordId)
    .where("organization_id", "=", grant.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}
