/**
 * Container measurements (export logs, JAS volume). Each container measurement photographs the
 * log ends in a container; its logs share the measurement's log length. The container's
 * totals are the sums over its measurements; a bill of lading sums its containers.
 * JAS volumes are summed from the per-log rounded volumes, as JAS tally sheets add them up.
 */
import { jasScalingDiameterCm, jasVolumeFromScaled, type JasRounding } from "./jas";

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
