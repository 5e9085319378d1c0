import { describe, expect, it } from "vitest";
import { computeContainerMeasurement, jasTally } from "./container";

// A reference 1 m long drawn 500 px wide: 5 px per cm. A circle of radius r px is 2r/5 cm.
const REF = [{ x1: 0, y1: 100, x2: 500, y2: 100, size: 1 }];

describe("container measurement (JAS)", () => {
  it("scales each log by the reference and sums the per-log JAS volumes (worked example)", () => {
    // r 75 px -> 30 cm -> JAS 30 cm; 4 m: 30² x 4 / 10 000 = 0.36 m³
    // r 40 px -> 16 cm -> JAS 16 cm; 16² x 4 / 10 000 = 0.1024 m³
    // r 33 px -> 13.2 cm -> JAS 13 cm; 13² x 4 / 10 000 = 0.0676 m³
    // a deleted log counts for nothing
    const r = computeContainerMeasurement(
      [
        { x: 10, y: 10, r: 75 },
        { x: 20, y: 20, r: 40 },
        { x: 30, y: 30, r: 33 },
        { x: 40, y: 40, r: 100, isDeleted: true },
      ],
      { references: REF, logLengthM: 4 },
    );
    expect(r.logs.map((l) => [Number(l.d.toFixed(4)), l.jasD, l.v])).toEqual([
      [30, 30, 0.36],
      [16, 16, 0.1024],
      [13.2, 13, 0.0676],
      [40, 40, 0.64],
    ]);
    expect(r.logCount).toBe(3);
    expect(r.volumeM3).toBeCloseTo(0.53, 10);
  });

  it("6 m and longer logs get the JAS length allowance: 30 cm x 8 m -> D' = 32, 0.8192 m³", () => {
    const r = computeContainerMeasurement([{ x: 0, y: 0, r: 75 }], { references: REF, logLengthM: 8 });
    expect(r.logs[0]!.v).toBe(0.8192);
  });

  it("without references or a log length every log is 0", () => {
    const r = computeContainerMeasurement([{ x: 0, y: 0, r: 75 }], { references: [], logLengthM: 4 });
    expect(r.logs[0]).toMatchObject({ d: 0, jasD: 0, v: 0 });
    expect(r.volumeM3).toBe(0);
    expect(r.logCount).toBe(1);
  });
});

describe("JAS tally", () => {
  it("groups by length and scaling diameter, totals are the rows' sums", () => {
    const t = jasTally([
      { jasD: 30, lengthM: 4, v: 0.36 },
      { jasD: 16, lengthM: 4, v: 0.1024 },
      { jasD: 30, lengthM: 4, v: 0.36 },
      { jasD: 20, lengthM: 3.8, v: 0.152 },
    ]);
    expect(t.rows).toEqual([
      { jasDiameterCm: 20, lengthM: 3.8, logCount: 1, volumeM3: 0.152 },
      { jasDiameterCm: 16, lengthM: 4, logCount: 1, volumeM3: 0.1024 },
      { jasDiameterCm: 30, lengthM: 4, logCount: 2, volumeM3: 0.72 },
    ]);
    expect(t.logCount).toBe(4);
    expect(t.volumeM3).toBeCloseTo(0.9744, 10);
  });
});
