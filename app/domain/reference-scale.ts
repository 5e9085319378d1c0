/**
 * Photo scale from reference lines. A reference is a stick or tape of known length on the pile
 * face; its two marked ends (image pixels) and its real size (metres, as stored) give pixels per
 * cm. Perspective makes the scale vary across a photo, so with several references we offer:
 *
 * - 'mean': the arithmetic mean of the references' px/cm (one scale for the photo).
 * - 'idw': inverse-distance weighting (power 2) of the references' px/cm, each reference located
 *   at its midpoint. At a reference's midpoint it gives that reference's scale; it never leaves
 *   the range of the references' scales, so it cannot extrapolate wildly.
 * - 'linear': least-squares plane s(x, y) = a + b x + c y (needs 3 non-collinear references;
 *   with 2, a line along the segment joining them), clamped to the references' min..max scale.
 * - 'auto' (default): 'mean' when all references agree within 1 % of the mean (measurement noise,
 *   no reason to vary), else 'idw'.
 */
import { InvalidInputError } from "./errors";
import { convertLength, type LengthUnit } from "./units";

export interface ReferenceLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Real length in metres. */
  size: number;
}

export interface Point {
  x: number;
  y: number;
}

export type ScaleMethod = "auto" | "mean" | "idw" | "linear";

/** Reference sizes are stored in metres; the editor may enter cm, ft, in or m. */
export function referenceSizeToMetres(value: number, unit: LengthUnit): number {
  return convertLength(value, unit, "m");
}

export function referencePixelLength(ref: ReferenceLine): number {
  return Math.hypot(ref.x2 - ref.x1, ref.y2 - ref.y1);
}

export function pixelsPerCm(ref: ReferenceLine): number {
  if (!(ref.size > 0) || !Number.isFinite(ref.size)) throw new InvalidInputError("size", ref.size, "must be > 0");
  const px = referencePixelLength(ref);
  if (!(px > 0)) throw new InvalidInputError("reference", px, "has zero pixel length");
  return px / (ref.size * 100);
}

export function meanPixelsPerCm(refs: readonly ReferenceLine[]): number {
  if (refs.length === 0) throw new InvalidInputError("references", 0, "must not be empty");
  let sum = 0;
  for (const r of refs) sum += pixelsPerCm(r);
  return sum / refs.length;
}

export interface ScaleField {
  method: Exclude<ScaleMethod, "auto">;
  mean: number;
  min: number;
  max: number;
  /** px/cm at an image point. */
  at(x: number, y: number): number;
}

interface Sample {
  x: number;
  y: number;
  s: number;
}

export function createScaleField(refs: readonly ReferenceLine[], method: ScaleMethod = "auto"): ScaleField {
  if (refs.length === 0) throw new InvalidInputError("references", 0, "must not be empty");
  const samples: Sample[] = refs.map((r) => ({ x: (r.x1 + r.x2) / 2, y: (r.y1 + r.y2) / 2, s: pixelsPerCm(r) }));
  let mean = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const p of samples) {
    mean += p.s;
    min = Math.min(min, p.s);
    max = Math.max(max, p.s);
  }
  mean /= samples.length;
  const agree = (max - mean) / mean <= 0.01 && (mean - min) / mean <= 0.01;
  const chosen = method === "auto" ? (samples.length === 1 || agree ? "mean" : "idw") : method;
  const base = { mean, min, max };
  if (chosen === "mean" || samples.length === 1) return { ...base, method: "mean", at: () => mean };
  if (chosen === "idw") return { ...base, method: "idw", at: (x, y) => idw(samples, x, y) };
  const plane = fitPlane(samples);
  return {
    ...base,
    method: "linear",
    at: (x, y) => Math.min(max, Math.max(min, plane(x, y))),
  };
}

function idw(samples: readonly Sample[], x: number, y: number): number {
  let num = 0;
  let den = 0;
  for (const p of samples) {
    const d2 = (p.x - x) ** 2 + (p.y - y) ** 2;
    if (d2 < 1e-12) return p.s;
    const w = 1 / d2;
    num += w * p.s;
    den += w;
  }
  return num / den;
}

/** Least-squares plane through (x, y, s); degenerates to a line (or the mean) when collinear. */
function fitPlane(samples: readonly Sample[]): (x: number, y: number) => number {
  const n = samples.length;
  let mx = 0;
  let my = 0;
  let ms = 0;
  for (const p of samples) {
    mx += p.x / n;
    my += p.y / n;
    ms += p.s / n;
  }
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let sxs = 0;
  let sys = 0;
  for (const p of samples) {
    const dx = p.x - mx;
    const dy = p.y - my;
    const ds = p.s - ms;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
    sxs += dx * ds;
    sys += dy * ds;
  }
  const det = sxx * syy - sxy * sxy;
  const scale = Math.max(sxx * syy, 1e-12);
  if (Math.abs(det) > 1e-9 * scale) {
    const b = (sxs * syy - sys * sxy) / det;
    const c = (sys * sxx - sxs * sxy) / det;
    return (x, y) => ms + b * (x - mx) + c * (y - my);
  }
  // Collinear centres: regress along the main direction.
  const len2 = sxx + syy;
  if (len2 < 1e-12) return () => ms;
  const ux = Math.sqrt(sxx / len2);
  const uy = Math.sign(sxy || 1) * Math.sqrt(syy / len2);
  const slope = (sxs * ux + sys * uy) / len2;
  return (x, y) => ms + slope * ((x - mx) * ux + (y - my) * uy);
}

/** Diameter in cm of a log end drawn as a circle of radius `radiusPx` at `pxPerCm`. */
export function diameterCmFromRadiusPx(radiusPx: number, pxPerCm: number): number {
  if (!(pxPerCm > 0)) throw new InvalidInputError("pixelsPerCm", pxPerCm, "must be > 0");
  return (2 * radiusPx) / pxPerCm;
}

/** Diameter in cm of a log circle, using the scale at the log's position. */
export function logDiameterCm(log: { x: number; y: number; r: number }, field: ScaleField): number {
  return diameterCmFromRadiusPx(log.r, field.at(log.x, log.y));
}
