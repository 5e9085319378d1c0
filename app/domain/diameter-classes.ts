/**
 * Diameter classes for tallies: class = [k x width, (k + 1) x width), lower bound by dropping
 * the fraction (floorEps, so 20.0 cm computed as 19.999999999 stays in the 20 class). Dropping
 * fractions is the usual tally convention (a 23.9 cm log is in class 22-24 with width 2).
 */
import { InvalidInputError } from "./errors";
import { floorEps } from "./numeric";

export function diameterClassFrom(diameterCm: number, classWidthCm: number): number {
  if (!(classWidthCm > 0)) throw new InvalidInputError("classWidthCm", classWidthCm, "must be > 0");
  // Round to 1e-6 cm so widths like 0.5 do not produce 19.499999999 bounds.
  return Math.round(floorEps(diameterCm / classWidthCm) * classWidthCm * 1e6) / 1e6;
}

export interface DiameterClass {
  fromCm: number;
  toCm: number;
  count: number;
  volume: number;
}

/** Counts and volumes per class, ascending, only non-empty classes. */
export function diameterClasses(
  diametersCm: ArrayLike<number>,
  volumes: ArrayLike<number>,
  classWidthCm: number,
): DiameterClass[] {
  const map = new Map<number, DiameterClass>();
  for (let i = 0; i < diametersCm.length; i++) {
    const from = diameterClassFrom(diametersCm[i], classWidthCm);
    let c = map.get(from);
    if (!c) {
      c = { fromCm: from, toCm: Math.round((from + classWidthCm) * 1e6) / 1e6, count: 0, volume: 0 };
      map.set(from, c);
    }
    c.count++;
    c.volume += volumes[i];
  }
  return [...map.values()].sort((a, b) => a.fromCm - b.fromCm);
}
