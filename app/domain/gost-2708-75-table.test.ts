import { describe, expect, it } from "vitest";
import {
  GOST_DIAMETERS_CM,
  GOST_LENGTHS_CM,
  GOST_TABLE3_DIAMETERS_CM,
  GOST_TABLE3_LENGTHS_CM,
  gostDiameterClassCm,
  gostLengthCm,
  gostTableCell,
  gostVolume,
} from "./gost-2708-75-table";

// Expected cells: GOST 2708-75 table 1 as transcribed in DrItStudio/f_calc_huawei
// lib/widgets/GOST_2708_75_table.dart; the rows marked "x2" agree with a second transcription
// (VladiFon/LesovodMobile app/src/main/assets/kubaturnik_gost2708_75.json), "c++" with a C++ tally
// tool's hard-coded GOST cells (6.0 m and 4.8 m, 16-34 cm; 3.0 m, 26-34 cm).
describe("GOST 2708-75 table 1 cells", () => {
  it.each([
    [6, 1.0, 0.0032],
    [120, 1.0, 1.22],
    [14, 1.5, 0.025],
    [4, 2.0, 0.0037],
    [30, 2.5, 0.2],
    [3, 3.0, 0.0045], // x2
    [26, 3.0, 0.185], // x2, c++
    [20, 3.25, 0.116], // x2
    [74, 3.3, 1.65], // x2 (the Dart file has 1.69)
    [14, 4.0, 0.073], // x2
    [20, 4.0, 0.147], // x2
    [24, 4.8, 0.26], // c++
    [34, 4.8, 0.52], // c++
    [50, 5.0, 1.15], // x2
    [60, 5.75, 1.95], // x2
    [18, 6.0, 0.194], // x2, c++
    [34, 6.0, 0.66], // x2, c++
    [6, 6.75, 0.033], // x2 (the Dart file has 0.030)
    [40, 7.0, 1.07],
    [13, 8.0, 0.158],
    [100, 8.5, 8.3],
    [120, 9.5, 13.67],
  ])("%i cm x %f m = %f m^3", (d, l, v) => {
    expect(gostVolume(d, l)).toEqual({ value: v, approximate: false, diameterClassCm: d, lengthM: l });
  });

  it("covers diameters 3-13 by 1 cm and 14-120 by 2 cm, lengths 1.0-9.5 m by 0.1 m plus x.25/x.75 from 3.25 m", () => {
    expect(GOST_DIAMETERS_CM.length).toBe(65);
    expect(GOST_LENGTHS_CM.length).toBe(86 + 13);
    expect(GOST_LENGTHS_CM.slice(21, 26)).toEqual([310, 320, 325, 330, 340]);
  });

  it("is monotonic in diameter and in length (guards transcription errors)", () => {
    for (const l of GOST_LENGTHS_CM) {
      let prev = 0;
      for (const d of GOST_DIAMETERS_CM) {
        const v = gostTableCell(d, l);
        if (v === undefined) continue;
        expect(v, `${d} cm x ${l} cm`).toBeGreaterThanOrEqual(prev);
        prev = v;
      }
    }
    for (const d of GOST_DIAMETERS_CM) {
      let prev = 0;
      for (const l of GOST_LENGTHS_CM) {
        const v = gostTableCell(d, l);
        if (v === undefined) continue;
        expect(v, `${d} cm x ${l} cm`).toBeGreaterThanOrEqual(prev);
        prev = v;
      }
    }
  });
});

describe("GOST 2708-75 class and length mapping", () => {
  it("diameter classes per GOST 2292-88", () => {
    expect(gostDiameterClassCm(12.4)).toBe(12);
    expect(gostDiameterClassCm(12.5)).toBe(13);
    expect(gostDiameterClassCm(13.4)).toBe(13);
    expect(gostDiameterClassCm(13.5)).toBe(14);
    expect(gostDiameterClassCm(13.9)).toBe(14);
    expect(gostDiameterClassCm(14.0)).toBe(14);
    expect(gostDiameterClassCm(14.9)).toBe(14);
    expect(gostDiameterClassCm(15.0)).toBe(16);
    expect(gostDiameterClassCm(15.9)).toBe(16);
    expect(gostDiameterClassCm(16.0)).toBe(16);
    expect(gostDiameterClassCm(20.9)).toBe(20);
    expect(gostDiameterClassCm(21.0)).toBe(22);
    expect(gostDiameterClassCm((20.32 / 2.54) * 2.54)).toBe(20);
  });
  it("length drops to the table column, robust to binary fractions", () => {
    expect(gostLengthCm(4.0)).toBe(400);
    expect(gostLengthCm(4.05)).toBe(400);
    expect(gostLengthCm(4.1)).toBe(410);
    expect(gostLengthCm(0.1 * 3 * 10)).toBe(300); // 3.0000000000000004
    expect(gostLengthCm(0.7 + 0.1 + 3.3)).toBe(410); // 4.1 computed as 4.1000000000000005 or 4.0999...
    expect(gostLengthCm(3.29)).toBe(325);
    expect(gostLengthCm(3.25)).toBe(325);
    expect(gostLengthCm(9.99)).toBe(950);
    expect(gostLengthCm(0.99)).toBeUndefined();
  });
  it("table 3 length classes: 0.5 m steps from 10.0 m, nothing above 13.5 m", () => {
    expect(gostLengthCm(9.999)).toBe(950);
    expect(gostLengthCm(10)).toBe(1000);
    expect(gostLengthCm(10.49)).toBe(1000);
    expect(gostLengthCm(10.5)).toBe(1050);
    expect(gostLengthCm(0.1 * 105)).toBe(1050); // 10.500000000000002 or 10.499999999999998
    expect(gostLengthCm(12.99)).toBe(1250);
    expect(gostLengthCm(13.5)).toBe(1350);
    expect(gostLengthCm(13.51)).toBeUndefined();
    expect(gostLengthCm(14)).toBeUndefined();
    // table 2 (0.5-0.9 m pit props) is not embedded
    expect(gostLengthCm(0.5)).toBeUndefined();
    expect(gostLengthCm(0.9)).toBeUndefined();
  });
  it("20.9 cm x 4.05 m is the 20 cm / 4.0 m cell; 21.0 cm x 4.0 m the 22 cm cell", () => {
    expect(gostVolume(20.9, 4.05).value).toBe(0.147);
    expect(gostVolume(21, 4).value).toBe(0.178);
    expect(gostVolume(13.9, 6).value).toBe(0.123);
    expect(gostVolume(13.4, 6).value).toBe(0.108);
  });
  it("approximate only where the standard has no cell or the cell is unconfirmed", () => {
    expect(gostVolume(3, 1.0)).toMatchObject({ approximate: true }); // no 3 cm cell at 1.0 m
    expect(gostVolume(10, 0.7)).toMatchObject({ approximate: true, lengthM: 0.7 }); // table 2 not embedded
    expect(gostVolume(40, 12)).toMatchObject({ approximate: true, lengthM: 12 }); // table 3 ends at 38 cm
    expect(gostVolume(6, 12)).toMatchObject({ approximate: true, lengthM: 12 }); // table 3 starts at 8 cm
    expect(gostVolume(20, 13.8)).toMatchObject({ approximate: true, lengthM: 13.8 }); // over 13.5 m: two logs
    expect(gostVolume(38, 12)).toEqual({ value: 1.89, approximate: true, diameterClassCm: 38, lengthM: 12 });
    expect(gostVolume(56, 5.5)).toEqual({ value: 1.62, approximate: true, diameterClassCm: 56, lengthM: 5.5 });
    expect(gostVolume(2, 4).value).toBe(0);
  });
});

// GOST 2708-75 table 3 (10.0-13.5 m, 8-38 cm) as transcribed in DrItStudio/f_calc_huawei
// lib/widgets/GOST_2708_75_table.dart (keys '10.0'-'13.5'); rows marked "x2" agree with a second
// publication of the standard's values, rusdom43.ru/vazhno/tablica-obemov-kruglogo-lesa-gost-2708-7.html
// (10.0 m and 11.0 m columns, 22-38 cm).
describe("GOST 2708-75 table 3 cells", () => {
  it.each([
    [22, 10.0, 0.54], // x2
    [30, 10.0, 0.95], // x2
    [38, 10.0, 1.51], // x2
    [26, 11.0, 0.83], // x2
    [32, 11.0, 1.25], // x2
    [36, 11.0, 1.54], // x2
    [38, 11.0, 1.73], // x2
    [8, 10.0, 0.1],
    [13, 10.5, 0.23],
    [14, 11.5, 0.3],
    [20, 12.0, 0.59],
    [28, 12.5, 1.14],
    [9, 13.0, 0.2],
    [32, 13.5, 1.69],
  ])("%i cm x %f m = %f m^3", (d, l, v) => {
    expect(gostVolume(d, l)).toEqual({ value: v, approximate: false, diameterClassCm: d, lengthM: l });
  });

  it("rounds the length down to the 0.5 m class and the diameter to its class", () => {
    expect(gostVolume(20.9, 12.4)).toEqual({ value: 0.59, approximate: false, diameterClassCm: 20, lengthM: 12 });
    expect(gostVolume(8.6, 13.5)).toEqual({ value: 0.21, approximate: false, diameterClassCm: 9, lengthM: 13.5 });
    expect(gostVolume(30, 10.99)).toMatchObject({ value: 1.03, lengthM: 10.5 });
    expect(gostVolume(30, 9.99)).toMatchObject({ value: 0.89, lengthM: 9.5 }); // still table 1
  });

  it("keeps the suspect cells flagged approximate", () => {
    expect(gostVolume(34, 13.5)).toEqual({ value: 1.99, approximate: true, diameterClassCm: 34, lengthM: 13.5 });
    expect(gostVolume(36, 13.5)).toMatchObject({ value: 2.01, approximate: true });
    expect(gostVolume(38, 11.0)).toMatchObject({ value: 1.73, approximate: false });
    expect(gostVolume(38, 11.5)).toMatchObject({ value: 1.79, approximate: true });
  });

  it("has 8 lengths x 19 diameters, monotonic and continuing table 1 at 9.5 m", () => {
    expect(GOST_TABLE3_LENGTHS_CM).toEqual([1000, 1050, 1100, 1150, 1200, 1250, 1300, 1350]);
    expect(GOST_TABLE3_DIAMETERS_CM).toEqual([
      8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38,
    ]);
    for (const l of GOST_TABLE3_LENGTHS_CM) {
      let prev = 0;
      for (const d of GOST_TABLE3_DIAMETERS_CM) {
        const v = gostTableCell(d, l);
        expect(v, `${d} cm x ${l} cm`).toBeDefined();
        expect(v!, `${d} cm x ${l} cm`).toBeGreaterThan(prev);
        prev = v!;
      }
    }
    for (const d of GOST_TABLE3_DIAMETERS_CM) {
      let prev = gostTableCell(d, 950)!;
      for (const l of GOST_TABLE3_LENGTHS_CM) {
        const v = gostTableCell(d, l)!;
        expect(v, `${d} cm x ${l} cm`).toBeGreaterThan(prev);
        prev = v;
      }
    }
  });
});
