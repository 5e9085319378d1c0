/**
 * JAS log scale (Japanese Agricultural Standard for logs, 素材の日本農林規格, "末口二乗法"),
 * used for export logs to Japan and China.
 *
 * - Scaling diameter: the small-end short axis under bark, in cm; below 14 cm fractions of
 *   1 cm are dropped, from 14 cm the diameter is taken in 2 cm steps dropping fractions
 *   (15.9 -> 14, 13.7 -> 13).
 * - Oval ends (our reading of the standard, to confirm against the printed JAS text): when the
 *   short axis is 14 cm or more and the long axis exceeds it by 6 cm or more (8 cm or more when
 *   the short axis is 40 cm or more), half of (difference - 4 cm) (resp. (difference - 6 cm))
 *   is added to the short axis before the 2 cm step is applied.
 * - Volume, L in m: L < 6 m: V = D^2 x L / 10 000. L >= 6 m: D' = D + (L' - 4) / 2 with L' the
 *   length dropped to whole metres, V = D'^2 x L / 10 000.
 *   Sources: Timbeter help "JAS規格(末口二乗法)" (old-site.timbeter.com/ja/help/); meimokuso.co.jp
 *   kenryo3.htm (新農林規格 formulas). Official text: 素材の日本農林規格 (MAFF kokuji 1841 of 1967,
 *   last amended 2007, www.maff.go.jp/j/kokuji_tuti/kokuji/k0000562.html); its measuring annex
 *   (oval ends, per-log rounding) could not be read from the sources available, so the oval-end
 *   rule and the rounding below remain unverified.
 * - Rounding of a log's volume (our reading of the standard, flagged in the report): under
 *   1 m^3 to 4 significant figures, from 1 m^3 to 3 decimals, half up. Pass rounding 'none'
 *   to get the raw value.
 */
import { floorEps, floorToStep, roundHalfUp, roundSignificant } from "./numeric";

export function jasScalingDiameterCm(shortAxisCm: number, longAxisCm?: number): number {
  let d = shortAxisCm;
  if (d < 14 - 1e-9) return floorEps(d);
  if (longAxisCm !== undefined && longAxisCm > shortAxisCm) {
    const diff = longAxisCm - shortAxisCm;
    if (shortAxisCm < 40 && diff >= 6 - 1e-9) d += (diff - 4) / 2;
    else if (shortAxisCm >= 40 && diff >= 8 - 1e-9) d += (diff - 6) / 2;
  }
  return floorToStep(d, 2);
}

export type JasRounding = "jas" | "none";

export function roundJasVolume(v: number): number {
  // Branches instead of log10 for the usual magnitudes (hot path for large piles).
  if (v >= 1) return roundHalfUp(v, 3);
  if (v >= 0.1) return roundHalfUp(v, 4);
  if (v >= 0.01) return roundHalfUp(v, 5);
  return roundSignificant(v, 4);
}

/** JAS volume in m^3 from an already scaled diameter (cm) and length (m). */
export function jasVolumeFromScaled(scaledDiameterCm: number, lengthM: number, rounding: JasRounding = "jas"): number {
  let d = scaledDiameterCm;
  if (lengthM >= 6 - 1e-9) d += (floorEps(lengthM) - 4) / 2;
  const v = (d * d * lengthM) / 10000;
  return rounding === "jas" ? roundJasVolume(v) : v;
}

export function jasVolumeM3(
  shortAxisCm: number,
  lengthM: number,
  longAxisCm?: number,
  rounding: JasRounding = "jas",
): number {
  return jasVolumeFromScaled(jasScalingDiameterCm(shortAxisCm, longAxisCm), lengthM, rounding);
}
