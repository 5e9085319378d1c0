/**
 * Lumber (sawn planks). Decision on units: the domain takes plank dimensions in millimetres
 * (LumberDimensionsMm), the unit sawmills quote sections in and one that keeps typical sizes
 * integral (4200 x 150 x 50). Stored product dimensions in another unit (the user's
 * lumber_plank_unit) go through lumberDimensionsToMm first. Volume = count x l x w x h.
 */
import { InvalidInputError, requireNonNegative } from "./errors";
import { convertLength, type LengthUnit } from "./units";

export interface LumberDimensionsMm {
  lengthMm: number;
  widthMm: number;
  heightMm: number;
}

export function lumberDimensionsToMm(
  dims: { length: number; width: number; height: number },
  unit: LengthUnit,
): LumberDimensionsMm {
  return {
    lengthMm: convertLength(dims.length, unit, "mm"),
    widthMm: convertLength(dims.width, unit, "mm"),
    heightMm: convertLength(dims.height, unit, "mm"),
  };
}

export function plankVolumeM3(dims: LumberDimensionsMm): number {
  return (
    (requireNonNegative("lengthMm", dims.lengthMm) *
      requireNonNegative("widthMm", dims.widthMm) *
      requireNonNegative("heightMm", dims.heightMm)) /
    1e9
  );
}

export function lumberVolumeM3(plankCount: number, dims: LumberDimensionsMm): number {
  if (!Number.isInteger(plankCount) || plankCount < 0) {
    throw new InvalidInputError("plankCount", plankCount, "must be a whole number >= 0");
  }
  return plankCount * plankVolumeM3(dims);
}

export interface PlankRect {
  x: number;
  y: number;
  width: number;
  height: number;
  isDeleted?: boolean;
}

/** Planks counted on a package end photo: every rectangle not marked deleted. */
export function plankCount(planks: readonly PlankRect[]): number {
  let n = 0;
  for (const p of planks) if (!p.isDeleted) n++;
  return n;
}

export function lumberMeasurementVolumeM3(planks: readonly PlankRect[], dims: LumberDimensionsMm): number {
  return lumberVolumeM3(plankCount(planks), dims);
}
