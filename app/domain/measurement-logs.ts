import { logVolume, type LogFormula, type Species } from "./log-volume";
import { createScaleField, logDiameterCm, type ReferenceLine } from "./reference-scale";

/**
 * The server's computation of a photographed measurement: each log circle (x, y, r in image
 * pixels) gets its diameter from the reference scale at its position and its volume by the
 * measurement's formula and log length; the measurement's volume is the sum over kept logs.
 */
export interface PixelLog {
  x: number;
  y: number;
  r: number;
  isDeleted?: boolean;
}

export interface ComputedLog {
  d: number;
  v: number;
}

export function computeMeasurementLogs<T extends PixelLog>(
  logs: readonly T[],
  input: { references: readonly ReferenceLine[]; formula: LogFormula; lengthM: number; species?: Species },
): { logs: Array<T & ComputedLog>; volume: number; logsCount: number } {
  const field = createScaleField(input.references);
  let volume = 0;
  let logsCount = 0;
  const out = logs.map((log) => {
    const d = logDiameterCm(log, field);
    const v = logVolume(input.formula, { topDiameterCm: d, lengthM: input.lengthM, species: input.species }).value;
    if (!log.isDeleted) {
      volume += v;
      logsCount += 1;
    }
    return { ...log, d, v };
  });
  return { logs: out, volume, logsCount };
}
