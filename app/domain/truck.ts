/**
 * Truck loads: one load per bed, measured as a stacked box.
 * stacked m^3 = height x load width x log length; solid m^3 = stacked x coefficient.
 * Inputs in metres (the spec's loads hold height, load_width, log_length, coefficient).
 */
import { normaliseCoefficient } from "./contour";
import { requireNonNegative } from "./errors";

export interface TruckLoad {
  heightM: number;
  loadWidthM: number;
  logLengthM: number;
  coefficient: number;
}

export interface TruckLoadVolume {
  stackedM3: number;
  solidM3: number;
}

export function truckLoadVolume(load: TruckLoad): TruckLoadVolume {
  const stackedM3 =
    requireNonNegative("heightM", load.heightM) *
    requireNonNegative("loadWidthM", load.loadWidthM) *
    requireNonNegative("logLengthM", load.logLengthM);
  return { stackedM3, solidM3: stackedM3 * normaliseCoefficient(load.coefficient) };
}

export interface TruckVolume extends TruckLoadVolume {
  loads: TruckLoadVolume[];
}

export function truckVolume(loads: readonly TruckLoad[]): TruckVolume {
  const each = loads.map(truckLoadVolume);
  let stackedM3 = 0;
  let solidM3 = 0;
  for (const l of each) {
    stackedM3 += l.stackedM3;
    solidM3 += l.solidM3;
  }
  return { stackedM3, solidM3, loads: each };
}
