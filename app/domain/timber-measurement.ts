import { contourVolume, measuredCoefficient } from "./contour";
import { LOG_FORMULAS, type LogFormula, type LogVolumeUnit, type Species } from "./log-volume";
import { computeMeasurementLogs, type PixelLog } from "./measurement-logs";
import { createScaleField, type Point, type ReferenceLine } from "./reference-scale";
import { convertVolume } from "./units";

/**
 * A photographed timber measurement's numbers from what is drawn on its photo: the server stores
 * them, and the editor previews them with this same function while the measurer works.
 *
 * With logs and a reference: each log's diameter and volume by the formula and log length, the
 * total in m³, and (when a measurement area is drawn) the measured stacking coefficient.
 * Without logs but with an area, a reference and a coefficient: the contour (group) volume.
 * Otherwise null: there is nothing to compute from (a manual measurement keeps its stated volume).
 */
export interface TimberMeasurementInput<T extends PixelLog> {
  logs: readonly T[];
  references: readonly ReferenceLine[];
  formula: string;
  logLengthM: number | null;
  species?: Species;
  measurementArea?: readonly Point[] | null;
  coefficient?: number | null;
}

export interface TimberMeasurementResult<T> {
  method: "logs" | "contour";
  logs: Array<T & { d: number; v: number }>;
  /** Solid m³ whatever the formula's native unit. */
  volumeM3: number;
  logsCount: number;
  coefficient: number | null;
  /** Contour figures when a measurement area is drawn and a reference scales it. */
  contour: { areaM2: number; stackedM3: number } | null;
}

/** A formula's native unit (m³, fbm or hoppus m³) to m³. */
export function formulaVolumeToCubicMetres(value: number, formula: string): number {
  const unit = LOG_FORMULAS[formula as LogFormula]?.unit ?? "m^3";
  return unit === "m^3" ? value : convertVolume(value, unit, "m^3");
}

/**
 * A stored m³ volume in the formula's native unit (what the measurement's own figures are in:
 * FBM for the board-foot rules, hoppus m³ for Hoppus, m³ for the rest); the inverse of
 * formulaVolumeToCubicMetres. An unknown formula keeps m³.
 */
export function cubicMetresToFormulaUnit(valueM3: number, formula: string): { value: number; unit: LogVolumeUnit } {
  const unit = LOG_FORMULAS[formula as LogFormula]?.unit ?? "m^3";
  return { value: unit === "m^3" ? valueM3 : convertVolume(valueM3, "m^3", unit), unit };
}

export function computeTimberMeasurement<T extends PixelLog>(
  input: TimberMeasurementInput<T>,
): TimberMeasurementResult<T> | null {
  const kept = input.logs.filter((l) => !l.isDeleted).length;
  const area = input.measurementArea && input.measurementArea.length >= 3 ? input.measurementArea : null;
  const hasScale = input.references.length > 0;
  const contourOf = (coefficient: number) =>
    area && hasScale && input.logLengthM
      ? contourVolume({
          polygon: area,
          scale: createScaleField(input.references),
          logLengthM: input.logLengthM,
          coefficient,
        })
      : null;

  if (kept > 0 && hasScale && input.logLengthM) {
    const r = computeMeasurementLogs(input.logs, {
      references: input.references,
      formula: input.formula as LogFormula,
      lengthM: input.logLengthM,
      species: input.species,
    });
    const coefficient = area ? measuredCoefficient(input.logs, area) : (input.coefficient ?? null);
    const c = area ? contourOf(coefficient ?? 0) : null;
    return {
      method: "logs",
      logs: r.logs,
      volumeM3: formulaVolumeToCubicMetres(r.volume, input.formula),
      logsCount: r.logsCount,
      coefficient,
      contour: c ? { areaM2: c.areaM2, stackedM3: c.stackedM3 } : null,
    };
  }
  if (area && hasScale && input.logLengthM && input.coefficient) {
    const c = contourOf(input.coefficient)!;
    return {
      method: "contour",
      logs: input.logs.map((l) => ({ ...l, d: 0, v: 0 })),
      volumeM3: c.solidM3,
      logsCount: kept,
      coefficient: c.coefficient,
      contour: { areaM2: c.areaM2, stackedM3: c.stackedM3 },
    };
  }
  return null;
}
