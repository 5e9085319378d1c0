/**
 * Container measurements (export logs, JAS volume). Each container measurement photographs the
 * log ends in a container; its logs share the measurement's log length. The container's
 * totals are the sums over its measurements; a bill of lading sums its containers.
 * JAS volumes are summed from the per-log rounded volumes, as JAS tally sheets add them up.
 */
import { jasScalingDiameterCm, jasVolumeFromScaled, type JasRounding } from "./jas";
import { createScaleField, logDiameterCm, type ReferenceLine } from "./reference-scale";

export interface ContainerLog {
  /** Short axis of the small end, cm. */
  diameterCm: number;
  longAxisCm?: number;
  isDeleted?: boolean;
}

export interface JasTotals {
  logCount: number;
  volumeM3: number;
  /** Mean JAS scaling diameter (cm) of the counted logs, 0 when none. */
  averageJasDiameterCm: number;
}

export function containerJasVolume(
  logs: readonly ContainerLog[],
  logLengthM: number,
  rounding: JasRounding = "jas",
): JasTotals {
  let logCount = 0;
  let volumeM3 = 0;
  let diameterSum = 0;
  for (const log of logs) {
    if (log.isDeleted) continue;
    const d = jasScalingDiameterCm(log.diameterCm, log.longAxisCm);
    logCount++;
    diameterSum += d;
    volumeM3 += jasVolumeFromScaled(d, logLengthM, rounding);
  }
  return { logCount, volumeM3, averageJasDiameterCm: logCount ? diameterSum / logCount : 0 };
}

export interface ContainerMeasurementInput {
  containerId: string | number;
  logs: readonly ContainerLog[];
  logLengthM: number;
}

export interface ContainerTotals {
  containerId: string | number;
  measurementCount: number;
  logCount: number;
  volumeM3: number;
}

/** Totals per container, in first-seen order of containers. */
export function containerTotals(measurements: readonly ContainerMeasurementInput[]): ContainerTotals[] {
  const byId = new Map<string | number, ContainerTotals>();
  for (const m of measurements) {
    const jas = containerJasVolume(m.logs, m.logLengthM);
    let t = byId.get(m.containerId);
    if (!t) {
      t = { containerId: m.containerId, measurementCount: 0, logCount: 0, volumeM3: 0 };
      byId.set(m.containerId, t);
    }
    t.measurementCount++;
    t.logCount += jas.logCount;
    t.volumeM3 += jas.volumeM3;
  }
  return [...byId.values()];
}

/** Sum of container totals, e.g. for a bill of lading. */
export function sumContainerTotals(totals: readonly ContainerTotals[]): { logCount: number; volumeM3: number } {
  let logCount = 0;
  let volumeM3 = 0;
  for (const t of totals) {
    logCount += t.logCount;
    volumeM3 += t.volumeM3;
  }
  return { logCount, volumeM3 };
}

/** A log circle of a container photo, in image pixels. */
export interface ContainerPixelLog {
  x: number;
  y: number;
  r: number;
  isDeleted?: boolean;
}

export interface ComputedContainerLog {
  /** Diameter (short axis) from the reference scale, cm. */
  d: number;
  /** JAS scaling diameter, cm. */
  jasD: number;
  /** JAS volume of the log (rounded per log as a tally sheet adds them), m³. */
  v: number;
}

/**
 * The stored numbers of a container measurement: each log's diameter from the references at its
 * position, its JAS scaling diameter and JAS volume at the measurement's log length; the
 * measurement's log count and volume are the sums over the kept logs. Without references or a
 * log length nothing can be scaled: every log is 0 and so is the volume.
 */
export function computeContainerMeasurement<T extends ContainerPixelLog>(
  logs: readonly T[],
  input: { references: readonly ReferenceLine[]; logLengthM: number | null },
): { logs: Array<T & ComputedContainerLog>; logCount: number; volumeM3: number } {
  const usable = input.references.length > 0 && input.logLengthM !== null && input.logLengthM > 0;
  const field = usable ? createScaleField(input.references) : null;
  let logCount = 0;
  let volumeM3 = 0;
  const out = logs.map((log) => {
    const d = field ? logDiameterCm(log, field) : 0;
    const jasD = field ? jasScalingDiameterCm(d) : 0;
    const v = field ? jasVolumeFromScaled(jasD, input.logLengthM!) : 0;
    if (!log.isDeleted) {
      logCount++;
      volumeM3 += v;
    }
    return { ...log, d, jasD, v };
  });
  return { logs: out, logCount, volumeM3 };
}

/** One row of a JAS tally sheet: how many logs of one scaling diameter, and their volume. */
export interface TallyRow {
  jasDiameterCm: number;
  lengthM: number;
  logCount: number;
  volumeM3: number;
}

/**
 * A JAS tally sheet of logs (already scaled and with their per-log volume): grouped by length
 * then scaling diameter, ascending; the totals are the sums of the rows.
 */
export function jasTally(logs: Iterable<{ jasD: number; lengthM: number; v: number }>): {
  rows: TallyRow[];
  logCount: number;
  volumeM3: number;
} {
  const byKey = new Map<string, TallyRow>();
  let logCount = 0;
  let volumeM3 = 0;
  for (const l of logs) {
    const key = `${l.lengthM}|${l.jasD}`;
    let row = byKey.get(key);
    if (!row) {
      row = { jasDiameterCm: l.jasD, lengthM: l.lengthM, logCount: 0, volumeM3: 0 };
      byKey.set(key, row);
    }
    row.logCount++;
    row.volumeM3 += l.v;
    logCount++;
    volumeM3 += l.v;
  }
  const rows = [...byKey.values()].sort((a, b) => a.lengthM - b.lengthM || a.jasDiameterCm - b.jasDiameterCm);
  return { rows, logCount, volumeM3 };
}
