/**
 * Group ("contour") method: the pile face outlined as a polygon in image pixels.
 * stacked (gross) m^3 = face area m^2 x log length; solid m^3 = stacked x stacking coefficient.
 * With a scale that varies across the photo, the face is converted at the scale of its
 * centroid (the scale at the area's centre of mass is the first-order average over the face).
 */
import { InvalidInputError, requireFraction, requireNonNegative } from "./errors";
import { roundHalfUp } from "./numeric";
import type { Point, ScaleField } from "./reference-scale";

/** Shoelace area in px^2 (absolute; either winding). */
export function polygonAreaPx(points: readonly Point[]): number {
  const n = points.length;
  if (n < 3) return 0;
  let twice = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    twice += points[j].x * points[i].y - points[i].x * points[j].y;
  }
  return Math.abs(twice) / 2;
}

export function polygonCentroid(points: readonly Point[]): Point {
  const n = points.length;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const cross = points[j].x * points[i].y - points[i].x * points[j].y;
    a += cross;
    cx += (points[j].x + points[i].x) * cross;
    cy += (points[j].y + points[i].y) * cross;
  }
  if (Math.abs(a) < 1e-12) {
    // Degenerate: average of vertices.
    let sx = 0;
    let sy = 0;
    for (const p of points) {
      sx += p.x;
      sy += p.y;
    }
    return { x: sx / Math.max(n, 1), y: sy / Math.max(n, 1) };
  }
  return { x: cx / (3 * a), y: cy / (3 * a) };
}

/** px^2 -> m^2 at a scale in px/cm. */
export function pxAreaToM2(areaPx: number, pxPerCm: number): number {
  if (!(pxPerCm > 0)) throw new InvalidInputError("pixelsPerCm", pxPerCm, "must be > 0");
  return areaPx / (pxPerCm * pxPerCm) / 10000;
}

export function polygonAreaM2(points: readonly Point[], scale: number | ScaleField): number {
  const areaPx = polygonAreaPx(points);
  if (typeof scale === "number") return pxAreaToM2(areaPx, scale);
  const c = polygonCentroid(points);
  return pxAreaToM2(areaPx, scale.at(c.x, c.y));
}

/**
 * Stacking coefficient: 0 to 1 in steps of 0.0001 (spec). Values are validated and normalised to
 * 4 decimals, so 0.65004 entered through a float becomes 0.65.
 */
export function normaliseCoefficient(coefficient: number): number {
  return roundHalfUp(requireFraction("coefficient", coefficient), 4);
}

export function stackedVolumeM3(areaM2: number, logLengthM: number): number {
  return requireNonNegative("areaM2", areaM2) * requireNonNegative("logLengthM", logLengthM);
}

export function solidVolumeM3(stackedM3: number, coefficient: number): number {
  return requireNonNegative("stackedM3", stackedM3) * normaliseCoefficient(coefficient);
}

export interface ContourVolume {
  areaM2: number;
  stackedM3: number;
  solidM3: number;
  coefficient: number;
}

export function contourVolume(input: {
  polygon: readonly Point[];
  scale: number | ScaleField;
  logLengthM: number;
  coefficient: number;
}): ContourVolume {
  const areaM2 = polygonAreaM2(input.polygon, input.scale);
  const stackedM3 = stackedVolumeM3(areaM2, input.logLengthM);
  const coefficient = normaliseCoefficient(input.coefficient);
  return { areaM2, stackedM3, solidM3: stackedM3 * coefficient, coefficient };
}

/**
 * Measured stacking coefficient: the log ends' area over the face area, both in image pixels
 * (same photo, so the scale cancels). Deleted logs are ignored. Clamped to 1 (overlapping
 * circles can exceed the face) and rounded to the coefficient's 4 decimals.
 */
export function measuredCoefficient(
  logs: readonly { r: number; isDeleted?: boolean }[],
  polygon: readonly Point[],
): number {
  const face = polygonAreaPx(polygon);
  if (!(face > 0)) return 0;
  let ends = 0;
  for (const log of logs) if (!log.isDeleted) ends += Math.PI * log.r * log.r;
  return roundHalfUp(Math.min(1, ends / face), 4);
}

/** Mean of height samples in metres (the measurement's `heights`), ignoring non-positive ones. */
export function pileHeightFromSamples(heightsM: readonly number[]): number {
  let sum = 0;
  let n = 0;
  for (const h of heightsM) {
    if (Number.isFinite(h) && h > 0) {
      sum += h;
      n++;
    }
  }
  return n === 0 ? 0 : sum / n;
}

/**
 * Pile height from load lines: each line is drawn from the top of the pile down to its base,
 * so its real length is one height sample; the pile height is their mean. The scale is taken at
 * each line's midpoint.
 */
export function pileHeightFromLoadLines(
  lines: readonly { x1: number; y1: number; x2: number; y2: number }[],
  scale: number | ScaleField,
): number {
  const samples = lines.map((l) => {
    const px = Math.hypot(l.x2 - l.x1, l.y2 - l.y1);
    const s = typeof scale === "number" ? scale : scale.at((l.x1 + l.x2) / 2, (l.y1 + l.y2) / 2);
    return px / s / 100;
  });
  return pileHeightFromSamples(samples);
}

/**
 * Pile height from a top profile polyline and the base line y (image pixels, y down), sampled at
 * `samples` equally spaced x positions between the profile's ends.
 */
export function pileHeightFromProfile(
  profile: readonly Point[],
  baseY: number,
  scale: number | ScaleField,
  samples = 20,
): number {
  if (profile.length < 2 || samples < 1) return 0;
  const pts = [...profile].sort((a, b) => a.x - b.x);
  const x0 = pts[0].x;
  const x1 = pts[pts.length - 1].x;
  const heights: number[] = [];
  let seg = 0;
  for (let k = 0; k < samples; k++) {
    const x = samples === 1 ? (x0 + x1) / 2 : x0 + ((x1 - x0) * k) / (samples - 1);
    while (seg < pts.length - 2 && pts[seg + 1].x < x) seg++;
    const a = pts[seg];
    const b = pts[seg + 1];
    const t = b.x === a.x ? 0 : (x - a.x) / (b.x - a.x);
    const y = a.y + t * (b.y - a.y);
    const s = typeof scale === "number" ? scale : scale.at(x, (y + baseY) / 2);
    heights.push((baseY - y) / s / 100);
  }
  return pileHeightFromSamples(heights);
}
