import { describe, expect, it } from "vitest";
import { diameterClassFrom, diameterClasses } from "./diameter-classes";
import { assortmentValueCents, summarizeMeasurement, type SummaryLog } from "./summary";

const cyl = (d: number, l: number) => (Math.PI / 4) * (d / 100) ** 2 * l;

describe("diameter classes", () => {
  it("drops fractions into classes of the configured width", () => {
    expect(diameterClassFrom(23.9, 2)).toBe(22);
    expect(diameterClassFrom(24, 2)).toBe(24);
    expect(diameterClassFrom(19.75, 0.5)).toBe(19.5);
    expect(diameterClassFrom(0.3 * 3 * 10, 9)).toBe(9); // 8.999999999999998 -> 9 class
    const c = diameterClasses([20.5, 21.9, 25, 9], [1, 2, 3, 4], 4);
    expect(c).toEqual([
      { fromCm: 8, toCm: 12, count: 1, volume: 4 },
      { fromCm: 20, toCm: 24, count: 2, volume: 3 },
      { fromCm: 24, toCm: 28, count: 1, volume: 3 },
    ]);
  });
});

describe("summarizeMeasurement", () => {
  const logs: SummaryLog[] = [
    { d: 16 }, // small: default cull (no assortment matches)
    { d: 20 }, // A
    { d: 26 }, // A (inclusive max)
    { d: 30 }, // B
    { d: 34, assortmentId: "A" }, // explicit wins over range
    { d: 22, cullId: "rot" }, // culled explicitly
    { d: 40, isDeleted: true }, // ignored
    { d: 28, v: 0.5 }, // stored volume used, B
  ];
  const assortments = [
    { id: "A", minDiameterCm: 18, maxDiameterCm: 26, priceCents: 5000, volumeUnit: "m^3" as const },
    { id: "B", minDiameterCm: 27, maxDiameterCm: 40, pricePerLogCents: 1234 },
  ];
  const s = summarizeMeasurement(logs, { logLengthM: 4, assortments, defaultCullId: "small", classWidthCm: 4 });

  it("counts, totals, min/max/average diameter, deleted excluded", () => {
    expect(s.logCount).toBe(7);
    expect(s.minDiameterCm).toBe(16);
    expect(s.maxDiameterCm).toBe(34);
    expect(s.averageDiameterCm).toBeCloseTo((16 + 20 + 26 + 30 + 34 + 22 + 28) / 7, 12);
    const expectedVolume = [16, 20, 26, 30, 34, 22].reduce((t, d) => t + cyl(d, 4), 0) + 0.5;
    expect(s.volume).toBeCloseTo(expectedVolume, 12);
    expect(s.culledCount).toBe(2);
    expect(s.acceptedCount).toBe(5);
    expect(s.unit).toBe("m^3");
  });
  it("assortments by range or explicit id, culls by id or default", () => {
    const a = s.byAssortment.find((x) => x.assortmentId === "A")!;
    const b = s.byAssortment.find((x) => x.assortmentId === "B")!;
    expect(a.count).toBe(3);
    expect(a.volume).toBeCloseTo(cyl(20, 4) + cyl(26, 4) + cyl(34, 4), 12);
    expect(b.count).toBe(2);
    expect(s.byCull).toEqual([
      { cullId: "small", count: 1, volume: cyl(16, 4) },
      { cullId: "rot", count: 1, volume: cyl(22, 4) },
    ]);
  });
  it("value in whole cents: per volume for A, per log for B", () => {
    const a = s.byAssortment.find((x) => x.assortmentId === "A")!;
    // A: (0.125664 + 0.212372 + 0.363168) m^3 x 5000 cents = 3506.02 -> 3506
    expect(a.valueCents).toBe(3506);
    expect(s.byAssortment.find((x) => x.assortmentId === "B")!.valueCents).toBe(2468);
    expect(s.valueCents).toBe(3506 + 2468);
  });
  it("diameter classes, logs sheet and average JAS diameter", () => {
    expect(s.byDiameterClass.map((c) => [c.fromCm, c.count])).toEqual([
      [16, 1],
      [20, 2],
      [24, 1],
      [28, 2],
      [32, 1],
    ]);
    expect(s.logsSheet).toHaveLength(7);
    expect(s.logsSheet[0]).toEqual({ diameterCm: 16, lengthM: 4, count: 1, volume: cyl(16, 4) });
    // JAS diameters: 16, 20, 26, 30, 34, 22, 28 are all even already
    expect(s.averageJasDiameterCm).toBeCloseTo(176 / 7, 12);
  });
  it("unassigned logs without a default cull, culls by range, recompute, other formulas", () => {
    const r = summarizeMeasurement([{ d: 10 }, { d: 12.5 }, { d: 30, v: 9 }], {
      logLengthM: 3,
      culls: [{ id: "thin", maxDiameterCm: 11 }],
      applyCullRanges: true,
      recompute: true,
      formula: "jas",
    });
    expect(r.byCull).toEqual([{ cullId: "thin", count: 1, volume: 0.03 }]);
    expect(r.byAssortment).toEqual([
      { assortmentId: null, count: 2, volume: expect.closeTo(0.0432 + 0.27, 12), valueCents: 0 },
    ]);
    expect(r.averageJasDiameterCm).toBeCloseTo((10 + 12 + 30) / 3, 12);
    const empty = summarizeMeasurement([]);
    expect(empty.logCount).toBe(0);
    expect(empty.averageDiameterCm).toBe(0);
  });
  it("logs sheet groups diameter x length", () => {
    const r = summarizeMeasurement(
      [
        { d: 20.4, lengthM: 3 },
        { d: 20.9, lengthM: 3 },
        { d: 20.1, lengthM: 4.9 },
      ],
      {},
    );
    expect(r.logsSheet.map((x) => [x.diameterCm, x.lengthM, x.count])).toEqual([
      [20, 3, 2],
      [20, 4.9, 1],
    ]);
  });
});

describe("assortmentValueCents", () => {
  it("converts the volume to the price unit before pricing", () => {
    // 1 m^3 at 100 cents per ft^3 = 3531.47 -> 3531 cents
    expect(assortmentValueCents({ id: 1, priceCents: 100, volumeUnit: "ft^3" }, 1, 1, "m^3")).toBe(3531);
    // 100 board feet (log rule) at 250 cents per fbm = 25000 cents
    expect(assortmentValueCents({ id: 1, priceCents: 250, volumeUnit: "fbm" }, 3, 100, "fbm")).toBe(25000);
    // half-cent rounds up: 0.5 m^3 x 3 cents = 1.5 -> 2
    expect(assortmentValueCents({ id: 1, priceCents: 3 }, 1, 0.5, "m^3")).toBe(2);
    expect(assortmentValueCents({ id: 1 }, 1, 0.5, "m^3")).toBe(0);
  });
});
