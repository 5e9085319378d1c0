import { describe, expect, it } from "vitest";
import {
  candidatePairs,
  comparePair,
  differenceHash,
  distanceMetres,
  findDuplicateCases,
  hammingDistance,
  logPattern,
  patternScore,
  type AnalysisLog,
  type AnalysisMeasurement,
} from "./duplicate-measurements";

function measurement(id: number, values: Partial<AnalysisMeasurement> = {}): AnalysisMeasurement {
  return {
    id,
    storageId: 1,
    takenAt: Date.UTC(2026, 10, 2, 10),
    latitude: null,
    longitude: null,
    logsCount: 0,
    volume: 1,
    photoSha256: null,
    photoDhash: null,
    logs: [],
    ...values,
  };
}

// A 4 × 3 grid of log ends, 30 cm apart, at 2 px per cm; diameters vary so the pattern is its own.
const GRID: AnalysisLog[] = Array.from({ length: 12 }, (_, i) => {
  const d = 20 + ((i * 7) % 9);
  return { x: 100 + (i % 4) * 60, y: 100 + Math.floor(i / 4) * 60, r: d, d };
});

describe("difference hash", () => {
  it("sets a bit where a pixel is brighter than its right neighbour", () => {
    // Row 0 falls left to right (all 8 bits set), the other rows rise (none set).
    const pixels = Array.from({ length: 72 }, (_, i) => (i < 9 ? 200 - i * 10 : (i % 9) * 10));
    expect(differenceHash(pixels)).toBe("ff00000000000000");
  });
  it("counts differing bits", () => {
    expect(hammingDistance("ff00000000000000", "ff00000000000000")).toBe(0);
    expect(hammingDistance("ff00000000000000", "0f00000000000001")).toBe(5);
    expect(hammingDistance("0000000000000000", "ffffffffffffffff")).toBe(64);
  });
});

describe("distance", () => {
  it("is about 111 m per 0.001° of latitude", () => {
    expect(distanceMetres(58.38, 26.72, 58.381, 26.72)).toBeCloseTo(111.2, 0);
  });
});

describe("log-end pattern", () => {
  it("is in cm, centred, whatever the photo's scale", () => {
    const p = logPattern(GRID)!;
    // 60 px at 2 px/cm = 30 cm between columns; the centroid is the grid's middle.
    expect(p.xs[1] - p.xs[0]).toBeCloseTo(30, 6);
    expect(p.xs[0]).toBeCloseTo(-45, 6);
  });
  it("matches the same grid scaled, shifted and rotated by 5°", () => {
    const t = (5 * Math.PI) / 180;
    const moved = GRID.map((l) => {
      const x = l.x * 1.7;
      const y = l.y * 1.7;
      return {
        x: x * Math.cos(t) - y * Math.sin(t) + 300,
        y: x * Math.sin(t) + y * Math.cos(t) - 40,
        r: l.r * 1.7,
        d: l.d,
      };
    });
    expect(patternScore(logPattern(GRID)!, logPattern(moved)!)).toBe(1);
  });
  it("does not match the same grid with the diameters shuffled", () => {
    const shuffled = GRID.map((l, i) => ({ ...l, d: GRID[(i + 5) % 12].d, r: GRID[(i + 5) % 12].r }));
    expect(patternScore(logPattern(GRID)!, logPattern(shuffled)!)).toBeLessThan(0.7);
  });
});

describe("pairs", () => {
  it("the same photo file is a duplicate, whatever else", () => {
    const v = comparePair(
      measurement(1, { photoSha256: "a".repeat(64) }),
      measurement(2, { photoSha256: "a".repeat(64), storageId: 9 }),
    );
    expect(v).toEqual({ duplicate: true, reasons: ["same_photo"], score: 1 });
  });
  it("a near-identical photo (6 bits) is one, 7 bits is not", () => {
    const a = measurement(1, { photoDhash: "0000000000000000" });
    expect(comparePair(a, measurement(2, { photoDhash: "3f00000000000000" })).reasons).toEqual(["similar_photo"]);
    expect(comparePair(a, measurement(2, { photoDhash: "7f00000000000000" })).duplicate).toBe(false);
  });
  it("being near in place and time alone is not a duplicate, but is given as a reason beside one", () => {
    const near = { latitude: 58.38, longitude: 26.72 };
    const a = measurement(1, { ...near, photoSha256: "b".repeat(64) });
    const b = measurement(2, { latitude: 58.3801, longitude: 26.72, photoSha256: "c".repeat(64) });
    expect(comparePair(a, b).duplicate).toBe(false);
    expect(comparePair(a, { ...b, photoSha256: "b".repeat(64) }).reasons).toEqual(["same_photo", "nearby"]);
  });
  it("the same log ends at the same storage are the same pile; at storages a city apart they are not compared", () => {
    const a = measurement(1, { logs: GRID, logsCount: 12, volume: 1 });
    const b = measurement(2, { logs: GRID.map((l) => ({ ...l, x: l.x + 50 })), logsCount: 12, volume: 1.02 });
    expect(comparePair(a, b)).toEqual({ duplicate: true, reasons: ["same_pile"], score: 1 });
    const far = { ...b, storageId: 2, latitude: 59.43, longitude: 24.75 };
    expect(comparePair({ ...a, latitude: 58.38, longitude: 26.72 }, far).duplicate).toBe(false);
  });
  it("skips the log-end comparison when counts or volumes differ by more than a quarter", () => {
    const a = measurement(1, { logs: GRID, logsCount: 12, volume: 1 });
    expect(comparePair(a, { ...a, id: 2, volume: 1.4 }).duplicate).toBe(false);
    expect(comparePair(a, { ...a, id: 2, logsCount: 17 }).duplicate).toBe(false);
  });
});

describe("cases", () => {
  it("joins a pile counted three times into one case with every reason, and leaves singles out", () => {
    const sha = "d".repeat(64);
    const cases = findDuplicateCases([
      measurement(1, { photoSha256: sha }),
      measurement(2, { photoSha256: sha, logs: GRID, logsCount: 12 }),
      measurement(3, { logs: GRID.map((l) => ({ ...l, y: l.y - 30 })), logsCount: 12 }),
      measurement(4, { photoSha256: "e".repeat(64) }),
    ]);
    expect(cases).toEqual([{ measurementIds: [1, 2, 3], reasons: ["same_photo", "same_pile"], score: 1 }]);
  });
  it("blocks: measurements at different storages without GPS and photos are never paired", () => {
    const ms = Array.from({ length: 50 }, (_, i) => measurement(i + 1, { storageId: i, logs: GRID, logsCount: 12 }));
    expect(candidatePairs(ms)).toEqual([]);
  });
  it("blocks: log counts further apart than the tolerance, or taken more than 3 days apart, are never paired", () => {
    const ms = [10, 30, 50, 51].map((n, i) => measurement(i + 1, { logs: GRID, logsCount: n }));
    expect(candidatePairs(ms)).toEqual([[2, 3]]);
    const apart = [0, 4].map((day, i) => measurement(i + 1, { logs: GRID, logsCount: 12, takenAt: day * 86_400_000 }));
    expect(candidatePairs(apart)).toEqual([]);
  });
});
