import { summarizeMeasurement, type LogFormula, type SummaryOptions, type VolumeUnit } from "~/domain";
import { speciesOf } from "./timber.server";

// The logs sheet, per-assortment and per-cull totals of one timber measurement, the same for the
// detail page and the public pages: the organisation's assortments sort the logs by their
// diameter ranges (app/domain's summary), culls are the logs' own.

export interface SummaryLookups {
  assortments: Array<{
    id: number;
    min_diameter: number | null;
    max_diameter: number | null;
    price_cents: number | null;
    price_per_log_cents: number | null;
    volume_unit: VolumeUnit;
  }>;
  culls: Array<{ id: number; min: number | null; max: number | null }>;
}

/** The summary options of one timber measurement: its formula, length, species, and the organisation's assortments and culls. */
export function timberSummaryOptions(
  m: { volume_formula: string; log_length: number | null; wood_type_id: number | null },
  lookups: SummaryLookups,
): SummaryOptions {
  return {
    formula: m.volume_formula as LogFormula,
    logLengthM: m.log_length ?? 0,
    species: speciesOf(m.wood_type_id),
    assortments: lookups.assortments.map((a) => ({
      id: a.id,
      minDiameterCm: a.min_diameter,
      maxDiameterCm: a.max_diameter,
      priceCents: a.price_cents,
      pricePerLogCents: a.price_per_log_cents,
      volumeUnit: a.volume_unit,
    })),
    culls: lookups.culls.map((c) => ({ id: c.id, minDiameterCm: c.min, maxDiameterCm: c.max })),
  };
}

export function timberSummary(
  m: { volume_formula: string; log_length: number | null; wood_type_id: number | null },
  logs: Array<{ d: number; v: number; is_deleted: boolean; cull_id: number | null; assortment_id: number | null }>,
  lookups: SummaryLookups,
) {
  return summarizeMeasurement(
    logs.map((l) => ({ d: l.d, v: l.v, isDeleted: l.is_deleted, cullId: l.cull_id, assortmentId: l.assortment_id })),
    timberSummaryOptions(m, lookups),
  );
}
