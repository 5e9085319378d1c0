/**
 * Measurement summaries for detail screens, reports and exports.
 *
 * Conventions (decided here, documented for reviewers):
 * - Deleted logs (isDeleted) are ignored everywhere.
 * - A log's volume is its stored `v` when present (taken to be in the formula's native unit,
 *   as the server stores it), else computed with the summary's formula.
 * - Culls: a log with a cullId is culled. With applyCullRanges, a log without cull/assortment
 *   whose diameter is inside a cull's [min, max] range is culled with it. Culled logs count in
 *   the per-cull totals, not in assortments or value.
 * - Assortments: an explicit assortmentId wins; otherwise the first assortment whose diameter
 *   range [min, max] (inclusive: profiles forbid shared bounds) contains the log's diameter.
 *   An assortment with neither bound set is matched only explicitly. A log that fits none gets
 *   the diameter profile's defaultCullId when given, else it is reported unassigned (id null).
 * - Value: per-log price (price_per_log_cents, when set and > 0) x count, else price_cents per
 *   the assortment's volume_unit x volume converted to that unit. Each assortment's value is
 *   rounded half up to whole cents once; the total is the sum of the rounded lines, so a report's
 *   lines always add up to its total.
 */
import { diameterClassFrom, diameterClasses, type DiameterClass } from "./diameter-classes";
import { jasScalingDiameterCm } from "./jas";
import {
  LOG_FORMULAS,
  logVolume,
  type LogFormula,
  type LogInput,
  type LogVolumeUnit,
  type Species,
} from "./log-volume";
import { roundHalfUp } from "./numeric";
import { convertVolume, type VolumeUnit } from "./units";

export type Id = string | number;

export interface SummaryLog {
  /** Diameter in cm (top, under bark). */
  d: number;
  v?: number | null;
  lengthM?: number | null;
  longAxisCm?: number | null;
  cullId?: Id | null;
  assortmentId?: Id | null;
  isDeleted?: boolean;
}

export interface SummaryAssortment {
  id: Id;
  minDiameterCm?: number | null;
  maxDiameterCm?: number | null;
  /** Price in cents per one `volumeUnit`. */
  priceCents?: number | null;
  pricePerLogCents?: number | null;
  volumeUnit?: VolumeUnit | null;
}

export interface SummaryCull {
  id: Id;
  minDiameterCm?: number | null;
  maxDiameterCm?: number | null;
}

export interface SummaryOptions {
  formula?: LogFormula;
  /** Length for logs without their own lengthM (the measurement's log_length). */
  logLengthM?: number;
  species?: Species;
  assortments?: readonly SummaryAssortment[];
  culls?: readonly SummaryCull[];
  defaultCullId?: Id | null;
  applyCullRanges?: boolean;
  /** Diameter class width in cm. Default 2. */
  classWidthCm?: number;
  /** Diameter step of the logs sheet in cm. Default 1. */
  sheetStepCm?: number;
  /** Ignore stored `v` and recompute every log with the formula. */
  recompute?: boolean;
}

export interface AssortmentTotal {
  assortmentId: Id | null;
  count: number;
  volume: number;
  valueCents: number;
}

export interface CullTotal {
  cullId: Id;
  count: number;
  volume: number;
}

export interface LogsSheetRow {
  diameterCm: number;
  lengthM: number;
  count: number;
  volume: number;
}

export interface MeasurementSummary {
  formula: LogFormula;
  unit: LogVolumeUnit;
  logCount: number;
  volume: number;
  acceptedCount: number;
  acceptedVolume: number;
  culledCount: number;
  culledVolume: number;
  averageDiameterCm: number;
  minDiameterCm: number;
  maxDiameterCm: number;
  averageJasDiameterCm: number;
  byAssortment: AssortmentTotal[];
  byCull: CullTotal[];
  byDiameterClass: DiameterClass[];
  logsSheet: LogsSheetRow[];
  valueCents: number;
}

const inRange = (d: number, min?: number | null, max?: number | null): boolean =>
  (min === null || min === undefined || d >= min - 1e-9) && (max === null || max === undefined || d <= max + 1e-9);

const hasRange = (r: { minDiameterCm?: number | null; maxDiameterCm?: number | null }): boolean =>
  (r.minDiameterCm !== null && r.minDiameterCm !== undefined) ||
  (r.maxDiameterCm !== null && r.maxDiameterCm !== undefined);

export function assignAssortment(d: number, assortments: readonly SummaryAssortment[]): SummaryAssortment | undefined {
  for (const a of assortments) if (hasRange(a) && inRange(d, a.minDiameterCm, a.maxDiameterCm)) return a;
  return undefined;
}

/** Where one log counts: culled (with the cull) or accepted (with its assortment, null: unassigned). */
export interface LogClass {
  cullId: Id | null;
  assortmentId: Id | null;
}

function classify(
  log: SummaryLog,
  assortments: readonly SummaryAssortment[],
  rangeCulls: readonly SummaryCull[],
  defaultCullId: Id | null | undefined,
): LogClass {
  const d = log.d;
  let cullId: Id | null = log.cullId ?? null;
  let assortmentId: Id | null = null;
  if (cullId === null) {
    const explicit = log.assortmentId ?? null;
    if (explicit !== null) assortmentId = explicit;
    else {
      const rc = rangeCulls.find((c) => inRange(d, c.minDiameterCm, c.maxDiameterCm));
      if (rc) cullId = rc.id;
      else {
        const a = assignAssortment(d, assortments);
        if (a) assortmentId = a.id;
        else if (defaultCullId !== null && defaultCullId !== undefined) cullId = defaultCullId;
      }
    }
  }
  return { cullId, assortmentId };
}

/**
 * The cull or assortment one log counts under, by the rules summarizeMeasurement applies (so a
 * per-log listing agrees with the per-assortment totals of the same options).
 */
export function classifyLog(log: SummaryLog, options: SummaryOptions = {}): LogClass {
  const rangeCulls = options.applyCullRanges ? (options.culls ?? []).filter(hasRange) : [];
  return classify(log, options.assortments ?? [], rangeCulls, options.defaultCullId);
}

export function summarizeMeasurement(logs: readonly SummaryLog[], options: SummaryOptions = {}): MeasurementSummary {
  const formula = options.formula ?? "cylinder";
  const unit = LOG_FORMULAS[formula].unit;
  const assortments = options.assortments ?? [];
  const assortmentById = new Map<Id, SummaryAssortment>(assortments.map((a) => [a.id, a]));
  const rangeCulls = options.applyCullRanges ? (options.culls ?? []).filter(hasRange) : [];
  const classWidth = options.classWidthCm ?? 2;
  const sheetStep = options.sheetStepCm ?? 1;

  const byAssortment = new Map<Id | null, AssortmentTotal>();
  const byCull = new Map<Id, CullTotal>();
  const sheet = new Map<string, LogsSheetRow>();
  const diameters: number[] = [];
  const volumes: number[] = [];
  const input: LogInput = { topDiameterCm: 0, lengthM: 0, species: options.species };

  let volume = 0;
  let culledCount = 0;
  let culledVolume = 0;
  let dSum = 0;
  let jasSum = 0;
  let dMin = Infinity;
  let dMax = -Infinity;

  for (const log of logs) {
    if (log.isDeleted) continue;
    const d = log.d;
    const lengthM = log.lengthM ?? options.logLengthM ?? 0;
    let v: number;
    if (!options.recompute && typeof log.v === "number" && Number.isFinite(log.v) && log.v >= 0) {
      v = log.v;
    } else {
      input.topDiameterCm = d;
      input.lengthM = lengthM;
      v = logVolume(formula, input).value;
    }
    diameters.push(d);
    volumes.push(v);
    volume += v;
    dSum += d;
    jasSum += jasScalingDiameterCm(d, log.longAxisCm ?? undefined);
    if (d < dMin) dMin = d;
    if (d > dMax) dMax = d;

    const sheetD = diameterClassFrom(d, sheetStep);
    const sheetKey = `${sheetD}|${lengthM}`;
    let row = sheet.get(sheetKey);
    if (!row) {
      row = { diameterCm: sheetD, lengthM, count: 0, volume: 0 };
      sheet.set(sheetKey, row);
    }
    row.count++;
    row.volume += v;

    const { cullId, assortmentId } = classify(log, assortments, rangeCulls, options.defaultCullId);
    if (cullId !== null) {
      culledCount++;
      culledVolume += v;
      let c = byCull.get(cullId);
      if (!c) {
        c = { cullId, count: 0, volume: 0 };
        byCull.set(cullId, c);
      }
      c.count++;
      c.volume += v;
    } else {
      let a = byAssortment.get(assortmentId);
      if (!a) {
        a = { assortmentId, count: 0, volume: 0, valueCents: 0 };
        byAssortment.set(assortmentId, a);
      }
      a.count++;
      a.volume += v;
    }
  }

  let valueCents = 0;
  for (const total of byAssortment.values()) {
    const a = total.assortmentId === null ? undefined : assortmentById.get(total.assortmentId);
    total.valueCents = a ? assortmentValueCents(a, total.count, total.volume, unit) : 0;
    valueCents += total.valueCents;
  }

  const logCount = diameters.length;
  return {
    formula,
    unit,
    logCount,
    volume,
    acceptedCount: logCount - culledCount,
    acceptedVolume: volume - culledVolume,
    culledCount,
    culledVolume,
    averageDiameterCm: logCount ? dSum / logCount : 0,
    minDiameterCm: logCount ? dMin : 0,
    maxDiameterCm: logCount ? dMax : 0,
    averageJasDiameterCm: logCount ? jasSum / logCount : 0,
    byAssortment: [...byAssortment.values()],
    byCull: [...byCull.values()],
    byDiameterClass: diameterClasses(diameters, volumes, classWidth),
    logsSheet: [...sheet.values()].sort((x, y) => x.lengthM - y.lengthM || x.diameterCm - y.diameterCm),
    valueCents,
  };
}

/** Value of an assortment line in whole cents (half up), per log or per volume. */
export function assortmentValueCents(
  a: SummaryAssortment,
  count: number,
  volume: number,
  volumeUnit: LogVolumeUnit,
): number {
  if (a.pricePerLogCents !== null && a.pricePerLogCents !== undefined && a.pricePerLogCents > 0) {
    return roundHalfUp(count * a.pricePerLogCents, 0);
  }
  if (a.priceCents === null || a.priceCents === undefined) return 0;
  const inPriceUnit = convertVolume(volume, volumeUnit, a.volumeUnit ?? "m^3");
  return roundHalfUp(inPriceUnit * a.priceCents, 0);
}
