// Duplicate storage measurements: which measurements of a period are the same pile counted twice.
// Pure (no I/O); the analysis job loads the rows, this decides. The method and the reason of each
// threshold: docs/decisions/016-duplicate-analysis.md.

export interface AnalysisLog {
  /** Centre and radius in image pixels, diameter in cm (the scale is d / 2r). */
  x: number;
  y: number;
  r: number;
  d: number;
}

export interface AnalysisMeasurement {
  id: number;
  storageId: number;
  /** Epoch milliseconds. */
  takenAt: number;
  latitude: number | null;
  longitude: number | null;
  logsCount: number;
  volume: number;
  /** SHA-256 of the original photo file (hex), when known. */
  photoSha256: string | null;
  /** 64-bit difference hash of the thumbnail (16 hex digits), when known. */
  photoDhash: string | null;
  logs: readonly AnalysisLog[];
}

export const DUPLICATE_REASONS = ["same_photo", "similar_photo", "nearby", "same_pile"] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

export interface DuplicateCase {
  measurementIds: number[];
  reasons: DuplicateReason[];
  /** The strongest pair's score, 0..1 (1 for the same photo file). */
  score: number;
}

export const DUPLICATE_THRESHOLDS = {
  /**
   * Bits (of 64) two thumbnails' difference hashes may differ by and still be one photo: JPEG
   * re-encoding and resizing flip 0–3 bits, two photos of different piles differ by ~32. Below 8,
   * so that of the hash's 8 bytes at least one is unchanged (the blocking relies on it).
   */
  maxDhashDistance: 6,
  /** Metres: phone GPS on a landing is good to ~10 m; two piles rarely stand closer than that. */
  nearbyMetres: 25,
  /** A re-photographed pile is measured again the same shift: within 12 hours. */
  nearbyMs: 12 * 3600_000,
  /**
   * Log counts and volumes of the same pile differ only by the logs detection missed or added
   * (a few per cent); beyond 25 % it is another pile, and the log-end comparison is skipped.
   */
  maxCountDifference: 0.25,
  maxVolumeDifference: 0.25,
  /** Piles of fewer logs than this match by chance too easily; only photo reasons apply to them. */
  minLogsForPattern: 8,
  /** Share of logs (of the larger measurement) whose ends must coincide to call it one pile. */
  minPatternScore: 0.7,
  /** A log end matches within this share of its diameter (position) ... */
  positionTolerance: 0.35,
  /** ... and with diameters within this share (detection noise and a slightly different reference). */
  diameterTolerance: 0.15,
  /** Photos are taken roughly level: rotations up to 8° are tried, in 2° steps. */
  maxRotationDeg: 8,
  rotationStepDeg: 2,
  /**
   * Log ends are compared only for measurements taken within 3 days of each other: a pile counted
   * twice is counted by the same delivery or stock-take; a pile still there weeks later is stock.
   */
  maxPatternGapMs: 3 * 24 * 3600_000,
  /** Log ends are compared only within one storage or this far apart (a landing, a yard). */
  samePlaceMetres: 1000,
  /** Block size for GPS: measurements further apart than one cell (~500 m) are never compared. */
  gpsCellDeg: 0.005,
} as const;

const T = DUPLICATE_THRESHOLDS;

// ---------- photo hashes ----------

/**
 * Difference hash from a 9×8 greyscale image (row-major, 72 values): bit i is set when a pixel is
 * brighter than its right neighbour. Robust to recompression and scaling, not to cropping.
 */
export function differenceHash(grey9x8: ArrayLike<number>): string {
  if (grey9x8.length !== 72) throw new RangeError("differenceHash needs 9×8 pixels");
  let hex = "";
  for (let row = 0; row < 8; row++) {
    let byte = 0;
    for (let col = 0; col < 8; col++) {
      const bit = grey9x8[row * 9 + col] > grey9x8[row * 9 + col + 1] ? 1 : 0;
      byte = (byte << 1) | bit;
    }
    hex += byte.toString(16).padStart(2, "0");
  }
  return hex;
}

export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < a.length; i += 4) {
    let x = parseInt(a.slice(i, i + 4), 16) ^ parseInt(b.slice(i, i + 4), 16);
    while (x) {
      distance += x & 1;
      x >>= 1;
    }
  }
  return distance;
}

// ---------- geometry ----------

export function distanceMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(a)));
}

interface Pattern {
  /** Log centres in cm relative to their centroid, and diameters in cm. */
  xs: Float64Array;
  ys: Float64Array;
  ds: Float64Array;
  medianD: number;
  /** Built on first use and kept: a pattern is compared with many others. */
  grid?: Grid;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The log ends in cm (scale from each photo's own d / 2r), centred on their centroid. */
export function logPattern(logs: readonly AnalysisLog[]): Pattern | null {
  const usable = logs.filter((l) => l.r > 0 && l.d > 0);
  if (usable.length === 0) return null;
  const cmPerPixel = median(usable.map((l) => l.d / (2 * l.r)));
  let cx = 0;
  let cy = 0;
  for (const l of usable) {
    cx += l.x;
    cy += l.y;
  }
  cx /= usable.length;
  cy /= usable.length;
  const n = usable.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const ds = new Float64Array(n);
  usable.forEach((l, i) => {
    xs[i] = (l.x - cx) * cmPerPixel;
    ys[i] = (l.y - cy) * cmPerPixel;
    ds[i] = l.d;
  });
  return { xs, ys, ds, medianD: median(usable.map((l) => l.d)) };
}

/** A hash grid over a pattern's log centres, for nearest-neighbour look-ups. */
class Grid {
  private cells = new Map<number, number[]>();
  constructor(
    private p: Pattern,
    private size: number,
  ) {
    for (let i = 0; i < p.xs.length; i++) {
      const key = this.key(Math.floor(p.xs[i] / size), Math.floor(p.ys[i] / size));
      const cell = this.cells.get(key);
      if (cell) cell.push(i);
      else this.cells.set(key, [i]);
    }
  }
  private key(cx: number, cy: number) {
    return (cx + 50_000) * 100_000 + (cy + 50_000);
  }
  /** The nearest log end to (x, y) with a compatible diameter, within tolerance; -1 if none. */
  nearest(x: number, y: number, d: number, posFactor: number): number {
    const cx = Math.floor(x / this.size);
    const cy = Math.floor(y / this.size);
    let best = -1;
    let bestDist = Infinity;
    for (let gx = cx - 1; gx <= cx + 1; gx++) {
      for (let gy = cy - 1; gy <= cy + 1; gy++) {
        const cell = this.cells.get(this.key(gx, gy));
        if (!cell) continue;
        for (const j of cell) {
          const dj = this.p.ds[j];
          if (Math.abs(dj - d) > T.diameterTolerance * Math.max(d, dj)) continue;
          const dist = Math.hypot(this.p.xs[j] - x, this.p.ys[j] - y);
          if (dist <= posFactor * Math.max(d, dj) && dist < bestDist) {
            best = j;
            bestDist = dist;
          }
        }
      }
    }
    return best;
  }
}

/**
 * Share (0..1, of the larger pile) of log ends of `a` that coincide with one of `b` after the best
 * small rotation and shift. Scale is already normalised (cm); the shift starts at the centroids
 * and is refined once from the matched pairs, so a few missed or added logs do not throw it off.
 */
export function patternScore(a: Pattern, b: Pattern): number {
  const n = Math.max(a.xs.length, b.xs.length);
  if (n === 0) return 0;
  // A cell as wide as the farthest match can be (0.9 × the larger diameter, which is at most
  // b's largest / (1 - diameter tolerance)), so the 3 × 3 cells around a point hold every candidate.
  b.grid ??= new Grid(b, Math.max(1, (0.9 * Math.max(...b.ds)) / (1 - T.diameterTolerance)));
  const grid = b.grid;
  let best = 0;
  const rx = new Float64Array(a.xs.length);
  const ry = new Float64Array(a.xs.length);
  // A spread sample of a's log ends is tried at every other angle (0°, ±4°, ±8°) within half a
  // diameter (2° either side moves a log 5 cm at 1.5 m from the centre): most look-alikes end there. Angles that pass are tried in
  // full with their neighbours, level first; a duplicate is accepted at the first that passes.
  const sampleSize = Math.min(a.xs.length, 16);
  const sample = Array.from({ length: sampleSize }, (_, k) => Math.floor((k * a.xs.length) / sampleSize));
  const coarse = [0];
  for (let deg = 2 * T.rotationStepDeg; deg <= T.maxRotationDeg; deg += 2 * T.rotationStepDeg) coarse.push(-deg, deg);
  const angles: number[] = [];
  for (const deg of coarse) {
    const t = (deg * Math.PI) / 180;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    let sampled = 0;
    for (const i of sample) {
      const x = a.xs[i] * cos - a.ys[i] * sin;
      const y = a.xs[i] * sin + a.ys[i] * cos;
      if (grid.nearest(x, y, a.ds[i], 0.5) >= 0) sampled++;
    }
    if (sampled < sampleSize * T.minPatternScore * 0.7) continue;
    for (const d of [deg, deg - T.rotationStepDeg, deg + T.rotationStepDeg]) {
      if (Math.abs(d) <= T.maxRotationDeg && !angles.includes(d)) angles.push(d);
    }
  }
  for (const deg of angles) {
    const t = (deg * Math.PI) / 180;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    for (let i = 0; i < a.xs.length; i++) {
      rx[i] = a.xs[i] * cos - a.ys[i] * sin;
      ry[i] = a.xs[i] * sin + a.ys[i] * cos;
    }
    // Loose pass: estimate the remaining shift from whatever matches roughly.
    const dxs: number[] = [];
    const dys: number[] = [];
    for (let i = 0; i < rx.length; i++) {
      const j = grid.nearest(rx[i], ry[i], a.ds[i], 0.9);
      if (j >= 0) {
        dxs.push(b.xs[j] - rx[i]);
        dys.push(b.ys[j] - ry[i]);
      }
    }
    // The strict pass cannot match much more than the loose one did.
    if (dxs.length < n * T.minPatternScore * 0.8) {
      best = Math.max(best, dxs.length / n / 4);
      continue;
    }
    const sx = median(dxs);
    const sy = median(dys);
    // Strict pass, each log end of b used once.
    const used = new Uint8Array(b.xs.length);
    let matched = 0;
    for (let i = 0; i < rx.length; i++) {
      const j = grid.nearest(rx[i] + sx, ry[i] + sy, a.ds[i], T.positionTolerance);
      if (j >= 0 && !used[j]) {
        used[j] = 1;
        matched++;
      }
    }
    best = Math.max(best, matched / n);
    if (best >= T.minPatternScore) break;
  }
  return best;
}

function relativeDifference(a: number, b: number) {
  const m = Math.max(Math.abs(a), Math.abs(b));
  return m === 0 ? 0 : Math.abs(a - b) / m;
}

// ---------- pairs and cases ----------

export interface PairVerdict {
  reasons: DuplicateReason[];
  score: number;
  duplicate: boolean;
}

/**
 * One pair: a duplicate when it is the same photo file, a near-identical photo, or the same log
 * ends. Being near in place and time is given as a reason beside those, never alone: piles on one
 * landing measured the same day are the look-alikes this must not report.
 */
export function comparePair(
  a: AnalysisMeasurement,
  b: AnalysisMeasurement,
  patterns: { get(id: number): Pattern | null } = { get: () => null },
): PairVerdict {
  const reasons: DuplicateReason[] = [];
  let score = 0;
  if (a.photoSha256 && a.photoSha256 === b.photoSha256) {
    reasons.push("same_photo");
    score = 1;
  } else if (a.photoDhash && b.photoDhash) {
    const dist = hammingDistance(a.photoDhash, b.photoDhash);
    if (dist <= T.maxDhashDistance) {
      reasons.push("similar_photo");
      score = Math.max(score, 1 - dist / 64);
    }
  }
  if (
    a.latitude !== null &&
    a.longitude !== null &&
    b.latitude !== null &&
    b.longitude !== null &&
    Math.abs(a.takenAt - b.takenAt) <= T.nearbyMs &&
    distanceMetres(a.latitude, a.longitude, b.latitude, b.longitude) <= T.nearbyMetres
  ) {
    reasons.push("nearby");
  }
  const samePlace =
    a.storageId === b.storageId ||
    (a.latitude !== null &&
      a.longitude !== null &&
      b.latitude !== null &&
      b.longitude !== null &&
      distanceMetres(a.latitude, a.longitude, b.latitude, b.longitude) <= T.samePlaceMetres);
  if (
    samePlace &&
    Math.min(a.logs.length, b.logs.length) >= T.minLogsForPattern &&
    relativeDifference(a.logsCount, b.logsCount) <= T.maxCountDifference &&
    relativeDifference(a.volume, b.volume) <= T.maxVolumeDifference
  ) {
    const pa = patterns.get(a.id) ?? logPattern(a.logs);
    const pb = patterns.get(b.id) ?? logPattern(b.logs);
    if (pa && pb) {
      const s = patternScore(pa, pb);
      if (s >= T.minPatternScore) {
        reasons.push("same_pile");
        score = Math.max(score, s);
      }
    }
  }
  const duplicate = reasons.some((r) => r !== "nearby");
  return { reasons: duplicate ? reasons : [], score: duplicate ? score : 0, duplicate };
}

/**
 * Candidate pairs, never all n²: the same photo file (grouped by hash); similar photos (grouped by
 * each of the hash's 8 bytes: hashes within 7 bits share at least one byte); and for the log-end
 * comparison, measurements of the same storage or neighbouring ~500 m GPS cells, taken within
 * 3 days of each other (sorted by time, a sliding window) with log counts within the tolerance.
 */
export function candidatePairs(measurements: readonly AnalysisMeasurement[]): Array<[number, number]> {
  const seen = new Set<number>();
  const pairs: Array<[number, number]> = [];
  const n = measurements.length;
  const add = (i: number, j: number) => {
    if (i === j) return;
    const [x, y] = i < j ? [i, j] : [j, i];
    const key = x * n + y;
    if (seen.has(key)) return;
    seen.add(key);
    pairs.push([x, y]);
  };
  const groupPairs = (groups: Map<string, number[]>) => {
    for (const members of groups.values()) {
      for (let p = 0; p < members.length; p++) for (let q = p + 1; q < members.length; q++) add(members[p], members[q]);
    }
  };
  const push = (groups: Map<string, number[]>, key: string, i: number) => {
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  };

  const bySha = new Map<string, number[]>();
  const byBand = new Map<string, number[]>();
  const byPlace = new Map<string, number[]>();
  measurements.forEach((m, i) => {
    if (m.photoSha256) push(bySha, m.photoSha256, i);
    if (m.photoDhash) {
      for (let band = 0; band < 8; band++) push(byBand, `${band}:${m.photoDhash.slice(band * 2, band * 2 + 2)}`, i);
    }
    if (m.logs.length >= T.minLogsForPattern) {
      push(byPlace, `s:${m.storageId}`, i);
      if (m.latitude !== null && m.longitude !== null) {
        const cx = Math.floor(m.longitude / T.gpsCellDeg);
        const cy = Math.floor(m.latitude / T.gpsCellDeg);
        // Each measurement joins its own cell and the three towards +x/+y, so any two in
        // neighbouring cells meet in one of them.
        for (const [dx, dy] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ])
          push(byPlace, `g:${cx + dx}:${cy + dy}`, i);
      }
    }
  });
  groupPairs(bySha);
  groupPairs(byBand);
  // Within a place, sorted by time: only those taken within the window, with log counts within
  // the tolerance, are compared by their log ends.
  for (const members of byPlace.values()) {
    members.sort((i, j) => measurements[i].takenAt - measurements[j].takenAt);
    for (let p = 0; p < members.length; p++) {
      const a = measurements[members[p]];
      for (let q = p + 1; q < members.length; q++) {
        const b = measurements[members[q]];
        if (b.takenAt - a.takenAt > T.maxPatternGapMs) break;
        if (relativeDifference(a.logsCount, b.logsCount) <= T.maxCountDifference) add(members[p], members[q]);
      }
    }
  }
  return pairs;
}

/** The cases of a period: pairs found duplicate, joined into groups (a pile counted three times is one case). */
export function findDuplicateCases(measurements: readonly AnalysisMeasurement[]): DuplicateCase[] {
  const byId = new Map(measurements.map((m) => [m.id, m]));
  const patternCache = new Map<number, Pattern | null>();
  const patterns = {
    get(id: number) {
      if (!patternCache.has(id)) {
        const m = byId.get(id);
        patternCache.set(id, m ? logPattern(m.logs) : null);
      }
      return patternCache.get(id) ?? null;
    },
  };

  const parent = measurements.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const found: Array<{ i: number; j: number; verdict: PairVerdict }> = [];
  for (const [i, j] of candidatePairs(measurements)) {
    const verdict = comparePair(measurements[i], measurements[j], patterns);
    if (!verdict.duplicate) continue;
    found.push({ i, j, verdict });
    parent[find(i)] = find(j);
  }
  const cases = new Map<number, { ids: Set<number>; reasons: Set<DuplicateReason>; score: number }>();
  for (const { i, j, verdict } of found) {
    const root = find(i);
    const c = cases.get(root) ?? { ids: new Set<number>(), reasons: new Set<DuplicateReason>(), score: 0 };
    c.ids.add(measurements[i].id);
    c.ids.add(measurements[j].id);
    verdict.reasons.forEach((r) => c.reasons.add(r));
    c.score = Math.max(c.score, verdict.score);
    cases.set(root, c);
  }
  return [...cases.values()]
    .map((c) => ({
      measurementIds: [...c.ids].sort((a, b) => a - b),
      reasons: DUPLICATE_REASONS.filter((r) => c.reasons.has(r)),
      score: Math.round(c.score * 1000) / 1000,
    }))
    .sort((a, b) => a.measurementIds[0] - b.measurementIds[0]);
}
