/**
 * GOST 2708-75 "Round timber. Volume tables" (Russia / CIS).
 *
 * The standard is a printed table of solid volumes (m^3, under bark) by top diameter class
 * and log length; it was built from average stem taper data and has no closed formula.
 *
 * HONESTY NOTE: the printed standard was not available while this module was written.
 * GOST_2708_75_CELLS holds only the cells the author is confident of (the widely reproduced
 * 4.0 m and 6.0 m columns, "кубатурник"), which must be checked against the printed table
 * before contractual use and extended with the full table (diameter classes 3-13 cm by 1 cm
 * and 14-120 cm by 2 cm; lengths 1.0-9.5 m). For any other cell gostVolume() returns an
 * approximation flagged `approximate: true`: a Huber-type volume with a mid diameter of
 * d + t x L / 2, taper t = 0.5 + 0.0285 d - 0.05 L cm/m, minimax-fitted (grid search) to the
 * embedded cells (max deviation 2.1 %), rounded to 3 significant figures like the table.
 *
 * Diameter class (GOST 2292-88 measuring rules, used with this table): below 14 cm in 1 cm
 * steps, fractions under 0.5 cm dropped and 0.5 cm or more rounded up; from 14 cm in 2 cm steps,
 * fractions of a centimetre dropped and an odd whole centimetre rounded up to the next even.
 * Length: dropped to 0.1 m before looking up the cell.
 */
import { floorEps, roundSignificant } from './numeric';

/** length in decimetres -> (diameter class cm -> m^3). */
// prettier-ignore
export const GOST_2708_75_CELLS: ReadonlyMap<number, ReadonlyMap<number, number>> = new Map([
  [40, new Map([
    [14, 0.073], [16, 0.095], [18, 0.12], [20, 0.147], [22, 0.178], [24, 0.21],
    [26, 0.25], [28, 0.29], [30, 0.33],
  ])],
  [60, new Map([
    [14, 0.12], [16, 0.155], [18, 0.19], [20, 0.23], [22, 0.28], [24, 0.33], [26, 0.39],
    [28, 0.45], [30, 0.52], [32, 0.59], [34, 0.66], [36, 0.74], [38, 0.82], [40, 0.9],
  ])],
]);

export const GOST_MIN_DIAMETER_CM = 3;
export const GOST_MAX_DIAMETER_CM = 120;

export function gostDiameterClassCm(diameterCm: number): number {
  if (diameterCm < 13.5 - 1e-9) return floorEps(diameterCm + 0.5);
  const whole = floorEps(diameterCm);
  return whole % 2 === 0 ? whole : whole + 1;
}

export interface GostVolume {
  value: number;
  approximate: boolean;
  diameterClassCm: number;
  lengthDm: number;
}

export function gostApproximateVolume(diameterClassCm: number, lengthM: number): number {
  const taper = 0.5 + 0.0285 * diameterClassCm - 0.05 * lengthM;
  const mid = diameterClassCm + (taper * lengthM) / 2;
  return roundSignificant((Math.PI / 4) * lengthM * mid * mid * 1e-4, 3);
}

export function gostVolume(topDiameterCm: number, lengthM: number): GostVolume {
  const diameterClassCm = gostDiameterClassCm(topDiameterCm);
  const lengthDm = floorEps(lengthM * 10);
  if (diameterClassCm < GOST_MIN_DIAMETER_CM || lengthDm <= 0) {
    return { value: 0, approximate: false, diameterClassCm, lengthDm };
  }
  const cell = GOST_2708_75_CELLS.get(lengthDm)?.get(diameterClassCm);
  if (cell !== undefined) return { value: cell, approximate: false, diameterClassCm, lengthDm };
  return {
    value: gostApproximateVolume(diameterClassCm, lengthDm / 10),
    approximate: true,
    diameterClassCm,
    lengthDm,
  };
}
