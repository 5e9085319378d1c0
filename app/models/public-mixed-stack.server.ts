import type { DB } from "~/utils/db.server";
import { readMixedStackReport } from "./mixed-stack-report.server";
import type { PublicGrant } from "./public-link.server";

// What a shared mixed stack report shows its recipient (/mixed_stack_report/public/{token}, GET
// /api/web_app/mixed_stack_reports/public/{token}): its name, delivered tons, the figures and
// both groups of measurements (their numbers, log counts, times and thumbnails), read through the
// grant (its organisation, its id). No other record's data and no people; a thumbnail is served
// through the report's token (only of a measurement in the report), never a measurement's photo
// or logs (docs/decisions/013-public-links.md).

type Grant = Pick<PublicGrant, "organizationId" | "recordId" | "organizationName" | "timeZone">;

export interface PublicMixedStackItem {
  id: number;
  photo_thumbnail: string | null;
  log_count: number;
  taken_at: Date;
  volume: { value: number; unit: "m^3" };
}

export interface PublicMixedStackView {
  name: string;
  total_delivery_tons: number | null;
  updated_at: Date;
  log_count: number;
  min_diameter: number | null;
  max_diameter: number | null;
  average_diameter: number | null;
  average_jas: number | null;
  far_away_volume: { value: number; unit: "m^3" };
  tons_per_m3: number | null;
  m3_per_ton: number | null;
  measurements_data: { close_up: PublicMixedStackItem[]; far_away: PublicMixedStackItem[] };
  organization: { name: string };
  time_zone: string;
}

/** The thumbnail key of a live measurement in the shared report, or undefined. */
export async function publicMixedStackThumbnailKey(
  db: DB,
  grant: Pick<PublicGrant, "organizationId" | "recordId">,
  measurementId: number,
) {
  const row = await db
    .selectFrom("mixed_stack_report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .select("m.photo_thumbnail_key")
    .where("rm.mixed_stack_report_id", "=", grant.recordId)
    .where("rm.organization_id", "=", grant.organizationId)
    .where("rm.measurement_id", "=", measurementId)
    .where("m.organization_id", "=", grant.organizationId)
    .where("m.deleted_at", "is", null)
    .executeTakeFirst();
  return row?.photo_thumbnail_key ?? undefined;
}

export async function readPublicMixedStackReport(
  db: DB,
  grant: Grant,
  token: string,
): Promise<PublicMixedStackView | undefined> {
  const r = await readMixedStackReport(db, grant.organizationId, grant.recordId);
  if (!r) return undefined;
  const item = (m: {
    id: number;
    log_count: number;
    taken_at: Date;
    volume: number;
    photo_thumbnail: string | null;
  }): PublicMixedStackItem => ({
    id: m.id,
    photo_thumbnail: m.photo_thumbnail ? `/mixed_stack_report/public/${token}/thumbnails/${m.id}` : null,
    log_count: m.log_count,
    taken_at: m.taken_at,
    volume: { value: m.volume, unit: "m^3" },
  });
  return {
    name: r.name,
    total_delivery_tons: r.total_delivery_tons,
    updated_at: r.updated_at,
    log_count: r.log_count,
    min_diameter: r.min_diameter,
    max_diameter: r.max_diameter,
    average_diameter: r.average_diameter,
    average_jas: r.average_jas,
    far_away_volume: { value: r.far_away_volume, unit: "m^3" },
    tons_per_m3: r.tons_per_m3,
    m3_per_ton: r.m3_per_ton,
    measurements_data: {
      close_up: r.measurements_data.close_up.map(item),
      far_away: r.measurements_data.far_away.map(item),
    },
    organization: { name: grant.organizationName },
    time_zone: grant.timeZone,
  };
}
