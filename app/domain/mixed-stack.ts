/**
 * Mixed stack report figures: a delivery of mixed logs, sold by weight, photographed close up
 * (the log ends: diameters) and far away (the whole stack: its volume).
 *
 * Conventions (decided here, docs/decisions/020-mixed-stack-reports.md):
 * - Diameters come from the close-up measurements' live logs only (deleted logs are ignored);
 *   the far-away photos show the stack, not measurable ends.
 * - Average JAS diameter: the mean of each log's JAS scaling diameter (`jasScalingDiameterCm`:
 *   whole cm below 14 cm, even cm from 14 cm).
 * - Averages are rounded half up to 1 decimal; minimum and maximum are the logs' own diameters.
 * - Density figures use the stack volume of the far-away measurements (solid m³, the sum of their
 *   volumes): tons per m³ = tons / volume, m³ per ton = volume / tons, each to 3 decimals, and
 *   null when the tons are not given or either side is zero.
 */
import { jasScalingDiameterCm } from "./jas";
import { roundHalfUp } from "./numeric";

export const MIXED_STACK_CATEGORIES = ["close_up", "far_away"] as const;
export type MixedStackCategoryName = (typeof MIXED_STACK_CATEGORIES)[number];

export interface MixedStackLog {
  /** Diameter in cm. */
  d: number;
  longAxisCm?: number | null;
  isDeleted?: boolean;
}

export interface MixedStackFigures {
  logCount: number;
  /** cm, null without logs. */
  minDiameterCm: number | null;
  maxDiameterCm: number | null;
  averageDiameterCm: number | null;
  averageJasDiameterCm: number | null;
  /** Solid m³ of the far-away measurements. */
  farAwayVolumeM3: number;
  totalDeliveryTons: number | null;
  tonsPerM3: number | null;
  m3PerTon: number | null;
}

export function mixedStackFigures(
  closeUpLogs: readonly MixedStackLog[],
  farAwayVolumeM3: number,
  totalDeliveryTons: number | null,
): MixedStackFigures {
  let count = 0;
  let sum = 0;
  let jasSum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const log of closeUpLogs) {
    if (log.isDeleted) continue;
    count++;
    sum += log.d;
    jasSum += jasScalingDiameterCm(log.d, log.longAxisCm ?? undefined);
    if (log.d < min) min = log.d;
    if (log.d > max) max = log.d;
  }
  const volume = roundHalfUp(Math.max(0, farAwayVolumeM3), 3);
  const tons = totalDeliveryTons !== null && totalDeliveryTons > 0 ? totalDeliveryTons : null;
  return {
    logCount: count,
    minDiameterCm: count ? min : null,
    maxDiameterCm: count ? max : null,
    averageDiameterCm: count ? roundHalfUp(sum / count, 1) : null,
    averageJasDiameterCm: count ? roundHalfUp(jasSum / count, 1) : null,
    farAwayVolumeM3: volume,
    totalDeliveryTons,
    tonsPerM3: tons !== null && volume > 0 ? roundHalfUp(tons / volume, 3) : null,
    m3PerTon: tons !== null && volume > 0 ? roundHalfUp(volume / tons, 3) : null,
  };
}

/** Tons as kilograms (the list shows the delivery in kg). */
export function tonsToKg(tons: number): number {
  return roundHalfUp(tons * 1000, 0);
}
