/**
 * US board-foot log rules: Doyle, Scribner Decimal C, International 1/4-inch.
 *
 * Scaling convention (all three rules), inputs in cm and m:
 * - Diameter: small-end diameter inside bark, in inches, dropped to the whole inch
 *   (default 'floor'). The USFS National Forest Log Scaling Handbook (FSH 2409.11) records
 *   diameters to the nearest inch with exact halves rounded down; pass 'nearest' for that.
 * - Length: whole feet, fractions dropped (trim allowance is assumed already excluded from
 *   the measurement's nominal log length).
 * - Unit conversion uses an epsilon-robust floor so 20.32 cm is exactly 8 in and
 *   4.8768 m is exactly 16 ft.
 */
import { floorEps } from "./numeric";
import { CM_PER_IN, M_PER_FT } from "./units";

export type InchRounding = "floor" | "nearest";

export function scalingDiameterIn(diameterCm: number, rounding: InchRounding = "floor"): number {
  const inches = diameterCm / CM_PER_IN;
  if (rounding === "floor") return floorEps(inches);
  // Nearest inch, an exact half rounds down (FSH 2409.11).
  return Math.ceil(inches - 0.5 - 1e-9);
}

export function scalingLengthFt(lengthM: number): number {
  return floorEps(lengthM / M_PER_FT);
}

/**
 * Doyle: BF = (D - 4)^2 x L / 16, D in inches, L in feet.
 * Logs of 4 in or less give 0 (the formula's square would turn positive below 4 in).
 * Result rounded to the whole board foot, as Doyle tables print (e.g. 10 in x 10 ft = 22.5 -> 23).
 */
export function doyleBoardFeet(diameterIn: number, lengthFt: number): number {
  if (diameterIn <= 4) return 0;
  const d = diameterIn - 4;
  return Math.round((d * d * lengthFt) / 16);
}

/*
 * Scribner Decimal C: the official USFS table, reproduced from the factor method of the
 * USDA Forest Service National Volume Estimator Library (NVEL, routine SCRIB, "corrected
 * factor volumes"): volume in tens of board feet = floor((L x F(D) + 5) / 10), with special
 * factors for 6-11 in logs of 16-31 ft and 32-40 ft, plus a list of cells where the printed
 * table differs by one unit from the factor result. Diameters 1..120 in, lengths in feet
 * (the table covers 1-40 ft; like NVEL, longer logs fall back to the general factor, an
 * extrapolation: the handbook scales such logs as two or more segments).
 */
// prettier-ignore
const SCRIBNER_FACTOR: readonly number[] = [
  0, // index 0 unused (diameter in inches is the index)
  0.000, 0.143, 0.390, 0.676, 1.070, 1.160, 1.400, 1.501, 2.084, 3.126,
  3.749, 4.900, 6.043, 7.140, 8.880, 10.000, 11.528, 13.290, 14.990, 17.499,
  18.990, 20.880, 23.510, 25.218, 28.677, 31.249, 34.220, 36.376, 38.040, 41.060,
  44.376, 45.975, 48.990, 50.000, 54.688, 57.660, 64.319, 66.730, 70.000, 75.240,
  79.480, 83.910, 87.190, 92.501, 94.990, 99.075, 103.501, 107.970, 112.292, 116.990,
  121.650, 126.525, 131.510, 136.510, 141.610, 146.912, 152.210, 157.710, 163.288, 168.990,
  174.850, 180.749, 186.623, 193.170, 199.120, 205.685, 211.810, 218.501, 225.685, 232.499,
  239.317, 246.615, 254.040, 261.525, 269.040, 276.630, 284.260, 292.501, 300.655, 308.970,
  317.360, 325.790, 334.217, 343.290, 350.785, 359.120, 368.380, 376.610, 385.135, 393.380,
  402.499, 410.834, 419.166, 428.380, 437.499, 446.565, 455.010, 464.150, 473.430, 482.490,
  491.700, 501.700, 511.700, 521.700, 531.700, 541.700, 552.499, 562.501, 573.350, 583.350,
  594.150, 604.170, 615.010, 625.890, 636.660, 648.380, 660.000, 671.700, 683.330, 695.011,
];
/** Factors for 6..11 in logs 16-31 ft long, then 32-40 ft long. */
const SCRIBNER_FACTOR_16_31 = [1.249, 1.608, 1.854, 2.41, 3.542, 4.167];
const SCRIBNER_FACTOR_32_40 = [1.57, 1.8, 2.2, 2.9, 3.815, 4.499];

/*
 * Cells where the printed table differs from the factor volume, as length*1000 + diameter
 * -> +1 or -1 (tens of board feet). NVEL encodes them as LLDDD with a last digit 1 (add)
 * or 0 (subtract).
 */
// prettier-ignore
const SCRIBNER_EXCEPTIONS_RAW = [
  40420, 40460, 40510, 40520, 40530, 40540, 40550, 40600, 40630, 40650, 40720, 40730, 40740,
  40750, 40760, 40800, 40860, 40880, 40930, 40960, 40980, 41010, 41020, 41030, 41040, 41050,
  41060, 41110, 41120, 41150, 41180, 50100, 50191, 50211, 50410, 50430, 50460, 50590, 50640,
  50650, 50740, 50750, 50810, 50840, 50860, 50890, 50900, 50930, 50950, 50970, 50990, 51090,
  51100, 51130, 51190, 51200, 60201, 60211, 60821, 60920, 61080, 61120, 61140, 70091, 70110,
  70611, 70710, 70791, 80241, 80291, 80381, 80640, 80660, 80671, 80690, 80711, 80771, 80790,
  80831, 90291, 90431, 90511, 90611, 90741, 100091, 100230, 100711, 100740, 100771, 100831,
  100960, 101071, 110091, 110250, 110581, 110611, 110641, 110731, 120100, 130060, 130470,
  130521, 130611, 130661, 130691, 130770, 130990, 140060, 140440, 140800, 150060, 150280,
  150451, 150511, 150611, 150741, 150801, 170461, 170611, 170641, 170751, 170801, 180440,
  180701, 180710, 180770, 180811, 180830, 180911, 180931, 180951, 180981, 181001, 181071,
  181111, 190080, 190090, 190131, 200080, 200090, 200621, 200641, 200661, 200670, 200691,
  200710, 200770, 200791,
];
const SCRIBNER_EXCEPTIONS = new Map<number, number>(
  SCRIBNER_EXCEPTIONS_RAW.map((code) => [Math.floor(code / 10), code % 10 === 1 ? 1 : -1]),
);

export const SCRIBNER_MAX_DIAMETER_IN = 120;

/*
 * Cells the published Scribner Decimal C table prints as a half tally (5 bd ft) where the
 * factor routine gives a whole one, as length*1000 + diameter. USDA FS National Forest Log
 * Scaling Handbook (FSH 2409.11), Scribner Decimal C table: 6 in x 8 ft = 0.5.
 */
const SCRIBNER_HALF_TALLY = new Set<number>([8006]);

/** Scribner Decimal C in tens of board feet (the "decimal C" tally figure, 0.5 on half-tally cells). */
export function scribnerDecimalC(diameterIn: number, lengthFt: number): number {
  if (diameterIn < 1 || lengthFt <= 0) return 0;
  const d = Math.min(Math.floor(diameterIn), SCRIBNER_MAX_DIAMETER_IN);
  const l = Math.floor(lengthFt);
  let factor = SCRIBNER_FACTOR[d];
  if (d >= 6 && d <= 11) {
    if (l >= 16 && l <= 31) factor = SCRIBNER_FACTOR_16_31[d - 6];
    else if (l >= 32 && l <= 40) factor = SCRIBNER_FACTOR_32_40[d - 6];
  }
  let tens = Math.floor((l * factor + 5) / 10 + 1e-9);
  const correction = SCRIBNER_EXCEPTIONS.get(l * 1000 + d);
  if (correction !== undefined) tens += correction;
  if (SCRIBNER_HALF_TALLY.has(l * 1000 + d)) return 0.5;
  return tens;
}

/** Scribner Decimal C in board feet (tally x 10). */
export function scribnerBoardFeet(diameterIn: number, lengthFt: number): number {
  return scribnerDecimalC(diameterIn, lengthFt) * 10;
}

/**
 * Where the International 1/4-inch rule puts the part-section of a log whose length is not a
 * multiple of 4 ft:
 * - "butt" (default): the published tables' convention (USDA extension-service tables, e.g.
 *   Purdue FNR-191, and the Michigan standard log rule): full 4-ft sections from the top, each
 *   1/2 in larger than the one above, then the part-section at the butt, at the diameter the
 *   taper has reached there (top + 1/2 in per full section).
 * - "top": the part-section at the top diameter, as USDA FS NVEL routine INTL14 computes it;
 *   5 bd ft less than the tables on some cells (10 in x 14 ft: 50 instead of 55). Kept for
 *   comparing with volumes computed by that routine, not offered on screens.
 */
export type InternationalPartSection = "butt" | "top";

/**
 * International 1/4-inch rule (Clark 1906): the log is split into 4-ft sections, each
 * section's small-end diameter grows 1/2 in per section toward the butt; a section's
 * 1/8-inch-kerf volume is 0.22 D^2 - 0.71 D, times 0.905 for the 1/4-inch kerf. A part-section
 * takes its proportional share (see InternationalPartSection for where it sits). The sum is
 * rounded to the nearest 5 board feet as the published tables are (remainder < 2.5 down,
 * >= 7.5 up, else 5), with any volume under 7.5 reported as 5. Diameters under 4 in give 0.
 */
export function internationalQuarterInch(
  diameterIn: number,
  lengthFt: number,
  partSection: InternationalPartSection = "butt",
): number {
  if (diameterIn < 4 || lengthFt <= 0) return 0;
  const sections = Math.floor(lengthFt / 4 + 1e-9);
  const fraction = lengthFt / 4 - sections;
  const sectionVolume = (d: number) => (0.22 * d * d - 0.71 * d) * 0.905;
  let volume = 0;
  for (let j = 0; j < sections; j++) volume += sectionVolume(diameterIn + j / 2);
  if (fraction > 1e-9) {
    const d = partSection === "butt" ? diameterIn + sections / 2 : diameterIn;
    volume += fraction * sectionVolume(d);
  }
  return roundToFiveBoardFeet(volume);
}

function roundToFiveBoardFeet(volume: number): number {
  if (volume < 7.5) return 5;
  const tens = Math.floor(volume / 10);
  // NVEL truncates the remainder to hundredths of ten board feet before comparing.
  const hundredths = Math.floor((volume / 10 - tens) * 100 + 1e-7);
  if (hundredths < 25) return tens * 10;
  if (hundredths >= 75) return (tens + 1) * 10;
  return tens * 10 + 5;
}
