import { describe, expect, it } from "vitest";
import { nilsonVolumeM3 } from "./estonian-nilson";
import { logVolume } from "./log-volume";

describe("GOST 2708-75 through logVolume", () => {
  // Full table tests: gost-2708-75-table.test.ts.
  it("20.9 cm x 6.05 m is the 20 cm / 6.0 m cell (0.23 m^3)", () => {
    expect(logVolume("gost_2708_75", { topDiameterCm: 20.9, lengthM: 6.05 })).toEqual({ value: 0.23, unit: "m^3" });
  });
  it("reads long logs from table 3, and flags lengths outside the tables (14 m) as approximate", () => {
    // GOST 2708-75 table 3: 20 cm x 12.0 m = 0.59 m3 (see gost-2708-75-table.test.ts for sources).
    expect(logVolume("gost_2708_75", { topDiameterCm: 20, lengthM: 12 })).toEqual({ value: 0.59, unit: "m^3" });
    expect(logVolume("gost_2708_75", { topDiameterCm: 20, lengthM: 14 }).approximate).toBe(true);
  });
});

describe("Estonian Nilson formula: V = (d^2 L (a1 + a2 L) + a3 L^2) / 10 000, L in dm", () => {
  // Coefficients from Timbeter help "Nilson formula" and kylmalate.ee "Palgi mahu määramine".
  it("pine 20 cm x 4 m: (400 x 40 x (0.0799 + 0.00584) + 0.0411 x 1600) / 1e4 = 0.14376", () => {
    expect(nilsonVolumeM3(20, 4, "pine")).toBeCloseTo(0.14376, 10);
  });
  it("spruce 20 cm x 4 m = 0.146144", () => {
    expect(nilsonVolumeM3(20, 4, "spruce")).toBeCloseTo(0.1461436, 6);
  });
  it("birch and other broadleaves share coefficients: 30 cm x 3 m", () => {
    // 900 x 30 x (0.0783 + 0.00708) + 0.045 x 900 = 2305.26 + 40.5 -> 0.234576
    expect(nilsonVolumeM3(30, 3, "birch")).toBeCloseTo(0.234576, 9);
    expect(nilsonVolumeM3(30, 3, "broadleaf")).toBe(nilsonVolumeM3(30, 3, "birch"));
  });
  it("generic conifers: 25 cm x 5.1 m", () => {
    // 625 x 51 x (0.08 + 0.007854) + 0.0453 x 2601 = 2800.34625 + 117.8253 -> 0.291817155
    expect(nilsonVolumeM3(25, 5.1, "conifer")).toBeCloseTo(0.291817155, 9);
  });
  it("through logVolume with species", () => {
    expect(logVolume("estonian_nilson", { topDiameterCm: 20, lengthM: 4, species: "pine" }).value).toBeCloseTo(
      0.14376,
      10,
    );
  });
});
