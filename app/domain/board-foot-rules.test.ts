import { describe, expect, it } from "vitest";
import {
  doyleBoardFeet,
  internationalQuarterInch,
  scalingDiameterIn,
  scalingLengthFt,
  scribnerBoardFeet,
  scribnerDecimalC,
} from "./board-foot-rules";
import { logVolume } from "./log-volume";

describe("scaling convention (cm/m -> whole inches/feet)", () => {
  it("exact inch/foot multiples stay whole despite floating point", () => {
    expect(scalingDiameterIn(20.32)).toBe(8);
    expect(scalingLengthFt(4.8768)).toBe(16);
    // The traps: these divisions land just under the integer in binary floating point.
    expect(78.74 / 2.54).toBeLessThan(31);
    expect(scalingDiameterIn(78.74)).toBe(31);
    expect(4.2672 / 0.3048).toBeLessThan(14);
    expect(scalingLengthFt(4.2672)).toBe(14);
    expect(scalingLengthFt(2.1336)).toBe(7);
  });
  it("drops fractions by default, nearest-inch with half down on request (FSH 2409.11)", () => {
    expect(scalingDiameterIn(22.85)).toBe(8); // 8.996 in
    expect(scalingDiameterIn(22.85, "nearest")).toBe(9);
    expect(scalingDiameterIn(21.59, "nearest")).toBe(8); // exactly 8.5 in rounds down
    expect(scalingDiameterIn(20.31)).toBe(7);
    expect(scalingLengthFt(4.87)).toBe(15);
  });
});

describe("Doyle: (D - 4)^2 x L / 16", () => {
  // Doyle log rule formula values as printed in Doyle tables (e.g. Purdue FNR-191 "Log scaling").
  it.each([
    [8, 16, 16],
    [12, 16, 64],
    [16, 16, 144],
    [20, 16, 256],
    [24, 16, 400],
    [10, 10, 23], // 22.5 rounded to the whole board foot
    [12, 8, 32],
  ])("%i in x %i ft = %i bf", (d, l, bf) => {
    expect(doyleBoardFeet(d, l)).toBe(bf);
  });
  it("gives 0 at or below 4 in", () => {
    expect(doyleBoardFeet(4, 16)).toBe(0);
    expect(doyleBoardFeet(3, 16)).toBe(0);
  });
});

describe("Scribner Decimal C (official USFS table via the NVEL factor method)", () => {
  // Scribner Decimal C table, 16 ft column (USDA Forest Service, National Forest Log Scaling
  // Handbook FSH 2409.11 appendix): tens of board feet.
  it.each([
    [6, 2],
    [8, 3],
    [10, 6],
    [12, 8],
    [14, 11],
    [16, 16],
    [20, 28],
    [24, 40],
    [30, 66],
  ])("%i in x 16 ft = %i (tens of bf)", (d, tens) => {
    expect(scribnerDecimalC(d, 16)).toBe(tens);
    expect(scribnerBoardFeet(d, 16)).toBe(tens * 10);
  });
  it("uses the short-log factors for 6-11 in logs under 16 ft and the special ones from 16 ft", () => {
    expect(scribnerDecimalC(8, 8)).toBe(1); // 8 x 1.501 = 12.0 -> (12 + 5) / 10 = 1
    expect(scribnerDecimalC(8, 32)).toBe(7); // 32 x 2.2 = 70.4 -> 7
  });
  it("applies the printed-table corrections (NVEL exception list)", () => {
    // 5 ft x 19 in: factor gives floor((5 x 14.99 + 5) / 10) = 7, the table prints 8.
    expect(scribnerDecimalC(19, 5)).toBe(8);
    // 4 ft x 42 in: factor gives floor((4 x 83.91 + 5) / 10) = 34, the table prints 33.
    expect(scribnerDecimalC(42, 4)).toBe(33);
  });
  it("prints the half tally of the published table: 6 in x 8 ft = 0.5 (5 bd ft), not 1", () => {
    // USDA FS National Forest Log Scaling Handbook (FSH 2409.11), Scribner Decimal C table.
    expect(scribnerDecimalC(6, 8)).toBe(0.5);
    expect(scribnerBoardFeet(6, 8)).toBe(5);
    expect(scribnerDecimalC(6, 16)).toBe(2);
  });
  it("is 0 for diameters under 1 in and caps at 120 in", () => {
    expect(scribnerDecimalC(0, 16)).toBe(0);
    expect(scribnerDecimalC(130, 10)).toBe(scribnerDecimalC(120, 10));
  });
});

describe("International 1/4-inch (4-ft sections, 1/2 in taper, nearest 5 bf)", () => {
  // International 1/4-inch log rule table, 16 ft logs (USDA FS; e.g. Purdue FNR-191):
  it.each([
    [6, 20],
    [8, 40],
    [10, 65],
    [12, 95],
    [14, 135],
    [16, 180],
    [20, 290],
    [24, 425],
    [30, 675],
  ])("%i in x 16 ft = %i bf", (d, bf) => {
    expect(internationalQuarterInch(d, 16)).toBe(bf);
  });
  // The same tables for lengths that are not a multiple of 4 ft: the 2-ft part-section sits at
  // the butt, 1/2 in larger per full 4-ft section above it (Purdue FNR-191; Michigan standard log
  // rule, MCL 290.401).
  it.each([
    [10, 8, 30],
    [10, 10, 35],
    [10, 12, 45],
    [10, 14, 55],
    [12, 8, 45],
    [12, 10, 55],
    [12, 12, 70],
    [12, 14, 85],
    [12, 16, 95],
  ])("%i in x %i ft = %i bf (table value)", (d, l, bf) => {
    expect(internationalQuarterInch(d, l)).toBe(bf);
  });
  it("keeps the top-piece convention of NVEL INTL14 as an option: 5 bd ft less on such cells", () => {
    expect(internationalQuarterInch(10, 14, "top")).toBe(50);
    expect(internationalQuarterInch(12, 14, "top")).toBe(80);
    // Lengths in whole 4-ft sections do not depend on the convention.
    expect(internationalQuarterInch(12, 16, "top")).toBe(95);
  });
  it("is 0 under 4 in and at least 5 bf from 4 in (NVEL INTL14)", () => {
    expect(internationalQuarterInch(3, 16)).toBe(0);
    expect(internationalQuarterInch(4, 8)).toBe(5);
  });
});

describe("board-foot rules through logVolume (cm, m inputs)", () => {
  it("12 in x 16 ft given as 30.48 cm x 4.8768 m", () => {
    const log = { topDiameterCm: 30.48, lengthM: 4.8768 };
    expect(logVolume("doyle", log)).toEqual({ value: 64, unit: "fbm" });
    expect(logVolume("scribner_decimal_c", log)).toEqual({ value: 80, unit: "fbm" });
    expect(logVolume("international_quarter_inch", log)).toEqual({ value: 95, unit: "fbm" });
  });
  it("a hair under 12 in scales as 11 in", () => {
    const log = { topDiameterCm: 30.47, lengthM: 4.8768 };
    expect(logVolume("doyle", log).value).toBe(49); // (11 - 4)^2 = 49
  });
});
