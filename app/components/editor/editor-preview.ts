import { computeTimberMeasurement, lumberMeasurementVolumeM3, type LumberDimensionsMm, type Species } from "~/domain";
import { computeContainerMeasurement } from "~/domain/container";
import type { EditorDoc } from "./editor-model";

// The live numbers beside the editor, computed in the browser by the same app/domain functions
// the server stores its numbers with. They are a preview: after Save the server's replace them.

export interface TimberPreview {
  /** Diameter in cm per log key (0 when there is no reference to scale by). */
  diameters: Map<string, number>;
  logCount: number;
  volumeM3: number | null;
  averageDiameterCm: number | null;
  coefficient: number | null;
  areaM2: number | null;
  stackedM3: number | null;
  error: string | null;
}

export function previewTimber(
  doc: EditorDoc,
  ctx: { logLengthM: number | null; species?: Species; coefficient: number | null },
): TimberPreview {
  const diameters = new Map<string, number>();
  const empty: TimberPreview = {
    diameters,
    logCount: doc.logs.length,
    volumeM3: null,
    averageDiameterCm: null,
    coefficient: null,
    areaM2: null,
    stackedM3: null,
    error: null,
  };
  try {
    const r = computeTimberMeasurement({
      logs: doc.logs,
      references: doc.references.filter((ref) => ref.size > 0),
      formula: doc.formula,
      logLengthM: ctx.logLengthM,
      species: ctx.species,
      measurementArea: doc.area,
      coefficient: ctx.coefficient,
    });
    if (!r) return empty;
    let sum = 0;
    for (const l of r.logs) {
      diameters.set(l.key, l.d);
      sum += l.d;
    }
    return {
      diameters,
      logCount: r.logsCount,
      volumeM3: r.volumeM3,
      averageDiameterCm: r.method === "logs" && r.logs.length ? sum / r.logs.length : null,
      coefficient: r.coefficient,
      areaM2: r.contour?.areaM2 ?? null,
      stackedM3: r.contour?.stackedM3 ?? null,
      error: null,
    };
  } catch (error) {
    return { ...empty, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A container measurement's live numbers: each log's diameter from the references, its JAS
 * scaling diameter and JAS volume at the measurement's log length (app/domain/container.ts, as the
 * server stores them); the average shown is of the JAS scaling diameters.
 */
export function previewContainer(doc: EditorDoc, ctx: { logLengthM: number | null }): TimberPreview {
  const diameters = new Map<string, number>();
  const references = doc.references.filter((ref) => ref.size > 0);
  const r = computeContainerMeasurement(doc.logs, { references, logLengthM: ctx.logLengthM });
  let sum = 0;
  for (const l of r.logs) {
    diameters.set(l.key, l.d);
    sum += l.jasD;
  }
  const scaled = references.length > 0 && ctx.logLengthM !== null && ctx.logLengthM > 0;
  return {
    diameters,
    logCount: r.logCount,
    volumeM3: scaled ? r.volumeM3 : null,
    averageDiameterCm: scaled && r.logs.length ? sum / r.logs.length : null,
    coefficient: null,
    areaM2: null,
    stackedM3: null,
    error: null,
  };
}

export interface LumberPreview {
  plankCount: number;
  volumeM3: number | null;
}

export function previewLumber(doc: EditorDoc, dims: LumberDimensionsMm | null): LumberPreview {
  return { plankCount: doc.planks.length, volumeM3: dims ? lumberMeasurementVolumeM3(doc.planks, dims) : null };
}
