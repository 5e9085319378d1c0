import { describe, expect, it } from "vitest";
import { pile, rephotograph } from "#db/seed/pile-variants";
import { comparePair, findDuplicateCases, type AnalysisMeasurement } from "~/domain/duplicate-measurements";

// Realistic piles (the seed's packed stacks): re-photographed ones must match, look-alikes
// (same packing, same size range, same yard, same day) must not.

function m(id: number, logs: ReturnType<typeof pile>): AnalysisMeasurement {
  const volume = logs.reduce((s, l) => s + Math.PI * (l.d / 200) ** 2 * 4, 0);
  return {
    id,
    storageId: 1,
    takenAt: Date.UTC(2026, 10, 2, 10),
    latitude: 58.38,
    longitude: 26.72,
    logsCount: logs.length,
    volume,
    photoSha256: null,
    photoDhash: null,
    logs,
  };
}

describe("re-photographed piles and look-alikes", () => {
  it("finds every re-photographed pile (shifted, scaled, rotated, logs missed and added, noisy diameters)", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const original = pile(seed);
      const again = rephotograph(original, 1000 + seed);
      const v = comparePair(m(1, original), m(2, again));
      expect(v.reasons, `seed ${seed}`).toContain("same_pile");
    }
  });
  it("never pairs different piles of the same kind at the same place and time", () => {
    const piles = Array.from({ length: 30 }, (_, i) => m(i + 1, pile(100 + i)));
    expect(findDuplicateCases(piles)).toEqual([]);
  });
  it("finds exactly the planted duplicates among look-alikes", () => {
    const piles = Array.from({ length: 20 }, (_, i) => m(i + 1, pile(200 + i)));
    const again = [m(101, rephotograph(piles[3].logs, 7)), m(102, rephotograph(piles[11].logs, 8))];
    const cases = findDuplicateCases([...piles, ...again]);
    expect(cases.map((c) => c.measurementIds)).toEqual([
      [4, 101],
      [12, 102],
    ]);
    expect(cases.every((c) => c.reasons.includes("same_pile") && c.reasons.includes("nearby"))).toBe(true);
  });
});
