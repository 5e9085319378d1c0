import { describe, expect, it } from "vitest";
import { mixedStackFigures, tonsToKg } from "./mixed-stack";

describe("mixed stack figures", () => {
  it("matches a hand calculation, average JAS included", () => {
    // Logs 12.6, 15.9, 22.0, 31.3 cm (and a deleted 50 cm).
    // Average: (12.6 + 15.9 + 22.0 + 31.3) / 4 = 81.8 / 4 = 20.45 -> 20.5 (half up).
    // JAS: 12.6 -> 12 (whole cm below 14), 15.9 -> 14, 22.0 -> 22, 31.3 -> 30 (even cm):
    // (12 + 14 + 22 + 30) / 4 = 78 / 4 = 19.5.
    // Far-away volume 12.5 m³, 10.75 t: 10.75 / 12.5 = 0.86 t/m³; 12.5 / 10.75 = 1.16279... -> 1.163 m³/t.
    const f = mixedStackFigures(
      [{ d: 12.6 }, { d: 15.9 }, { d: 22 }, { d: 31.3 }, { d: 50, isDeleted: true }],
      12.5,
      10.75,
    );
    expect(f).toEqual({
      logCount: 4,
      minDiameterCm: 12.6,
      maxDiameterCm: 31.3,
      averageDiameterCm: 20.5,
      averageJasDiameterCm: 19.5,
      farAwayVolumeM3: 12.5,
      totalDeliveryTons: 10.75,
      tonsPerM3: 0.86,
      m3PerTon: 1.163,
    });
  });

  it("oval ends count with their JAS adjustment", () => {
    // 30 x 38 cm: 30 + (8 - 4) / 2 = 32.
    expect(mixedStackFigures([{ d: 30, longAxisCm: 38 }], 0, null).averageJasDiameterCm).toBe(32);
  });

  it("no logs, no tons, no volume: nulls, never a division by zero", () => {
    const f = mixedStackFigures([], 0, 5);
    expect(f.logCount).toBe(0);
    expect(f.averageDiameterCm).toBeNull();
    expect(f.averageJasDiameterCm).toBeNull();
    expect(f.minDiameterCm).toBeNull();
    expect(f.tonsPerM3).toBeNull();
    expect(mixedStackFigures([{ d: 20 }], 3, null).m3PerTon).toBeNull();
    expect(mixedStackFigures([{ d: 20 }], 3, 0).tonsPerM3).toBeNull();
  });

  it("tons to kg", () => {
    expect(tonsToKg(10.75)).toBe(10750);
    expect(tonsToKg(0.01)).toBe(10);
  });
});
