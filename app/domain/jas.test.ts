import { describe, expect, it } from "vitest";
import { jasScalingDiameterCm, jasVolumeM3, roundJasVolume } from "./jas";
import { logVolume } from "./log-volume";

// Sources: JAS for logs (素材の日本農林規格) 末口二乗法 as summarised in Timbeter help "JAS規格"
// and wasabito.com "丸太の材積計算に用いる末口2乗法" (30 cm x 4 m = 0.36 m^3 worked example).
describe("JAS scaling diameter", () => {
  it("drops fractions to whole cm below 14 cm", () => {
    expect(jasScalingDiameterCm(13.7)).toBe(13);
    expect(jasScalingDiameterCm(8.99)).toBe(8);
    expect(jasScalingDiameterCm(13.999)).toBe(13);
  });
  it("drops to even cm from 14 cm", () => {
    expect(jasScalingDiameterCm(14)).toBe(14);
    expect(jasScalingDiameterCm(15.9)).toBe(14);
    expect(jasScalingDiameterCm(31.9)).toBe(30);
    expect(jasScalingDiameterCm(32)).toBe(32);
  });
  it("oval ends: adds (difference - 4) / 2 when the long axis exceeds the short by >= 6 cm", () => {
    expect(jasScalingDiameterCm(30, 35)).toBe(30); // difference 5: no adjustment
    expect(jasScalingDiameterCm(30, 36)).toBe(30); // +1 -> 31 -> even 30
    expect(jasScalingDiameterCm(30, 38)).toBe(32); // +2 -> 32
    expect(jasScalingDiameterCm(40, 47)).toBe(40); // >= 40 cm needs 8 cm difference
    expect(jasScalingDiameterCm(40, 50)).toBe(42); // (10 - 6) / 2 = 2
    expect(jasScalingDiameterCm(12, 20)).toBe(12); // below 14 cm: no adjustment
  });
});

describe("JAS volume", () => {
  it("30 cm x 4 m = 0.360 m^3 (D^2 L / 10 000)", () => {
    expect(jasVolumeM3(30, 4)).toBe(0.36);
    expect(logVolume("jas", { topDiameterCm: 31.9, lengthM: 4 })).toEqual({ value: 0.36, unit: "m^3" });
  });
  it("14 cm x 4 m = 0.0784; 13 cm x 3.65 m = 0.061685 -> 0.06169 (4 significant figures)", () => {
    expect(jasVolumeM3(14, 4)).toBe(0.0784);
    expect(jasVolumeM3(13, 3.65)).toBe(0.06169);
  });
  it("5.9 m uses no length correction", () => {
    expect(jasVolumeM3(30, 5.9)).toBe(0.531);
  });
  it("from 6 m: D' = D + (L' - 4) / 2 with L' whole metres", () => {
    expect(jasVolumeM3(30, 6)).toBe(0.5766); // (30 + 1)^2 x 6 / 1e4
    expect(jasVolumeM3(30, 6.5)).toBe(0.6247); // 31^2 x 6.5 = 0.62465, L' = 6
    expect(jasVolumeM3(30, 7.3)).toBe(0.7243); // L' = 7: D' = 31.5, 31.5^2 x 7.3 = 0.724343
    expect(jasVolumeM3(30, 6.5, undefined, "none")).toBeCloseTo(0.62465, 12);
  });
});

describe("JAS rounding", () => {
  it("4 significant figures under 1 m^3, 3 decimals from 1 m^3, half up", () => {
    expect(roundJasVolume(0.62465)).toBe(0.6247);
    expect(roundJasVolume(0.123449)).toBe(0.1234);
    expect(roundJasVolume(1.23456)).toBe(1.235);
  });
});
