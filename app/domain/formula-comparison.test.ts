import { describe, expect, it } from "vitest";
import { doyleBoardFeet } from "./board-foot-rules";
import { computeContainerMeasurement } from "./container";
import { compareFormulas } from "./formula-comparison";
import { FBM_M3 } from "./units";

// Two logs of 20 cm and 30 cm, 4 m long, measured with the cylinder formula.
const logs = { diametersCm: [20, 30], lengthM: 4 };

describe("compareFormulas", () => {
  it("lists every top-diameter formula, the board-foot rules among them, and only those", () => {
    const rows = compareFormulas({ ...logs, ownFormula: "cylinder" });
    expect(rows.map((r) => r.formula)).toEqual([
      "cylinder",
      "jas",
      "gost_2708_75",
      "estonian_nilson",
      "doyle",
      "scribner_decimal_c",
      "international_quarter_inch",
    ]);
    expect(rows.filter((r) => r.boardFoot).map((r) => r.formula)).toEqual([
      "doyle",
      "scribner_decimal_c",
      "international_quarter_inch",
    ]);
  });

  it("cylinder by hand: pi/4 x (0.2² + 0.3²) x 4 = 0.408407 m³, the own formula's difference is 0", () => {
    const cyl = compareFormulas({ ...logs, ownFormula: "cylinder" })[0];
    expect(cyl.total).toBeCloseTo((Math.PI / 4) * (0.04 + 0.09) * 4, 12);
    expect(cyl).toMatchObject({ own: true, differenceM3: 0, differencePercent: 0, unit: "m^3" });
  });

  it("Doyle by hand: 20 cm = 7 in, 30 cm = 11 in, 4 m = 13 ft → 3² x 13 / 16 = 7.3 → 7 and 7² x 13 / 16 = 39.8 → 40: 47 fbm", () => {
    const rows = compareFormulas({ ...logs, ownFormula: "cylinder" });
    const doyle = rows.find((r) => r.formula === "doyle")!;
    expect(doyleBoardFeet(7, 13) + doyleBoardFeet(11, 13)).toBeCloseTo(47, 12);
    expect(doyle.total).toBeCloseTo(47, 12);
    expect(doyle.unit).toBe("fbm");
    expect(doyle.totalM3).toBeCloseTo(47 * FBM_M3, 12);
    const cylM3 = rows[0].totalM3!;
    expect(doyle.differenceM3).toBeCloseTo(47 * FBM_M3 - cylM3, 12);
    expect(doyle.differencePercent).toBeCloseTo(((47 * FBM_M3 - cylM3) / cylM3) * 100, 9);
  });

  it("Nilson needs a species: without one it has no total, with one it computes", () => {
    const without = compareFormulas({ ...logs, ownFormula: "cylinder" }).find((r) => r.formula === "estonian_nilson")!;
    expect(without).toMatchObject({ total: null, totalM3: null, differenceM3: null });
    const withPine = compareFormulas({ ...logs, species: "pine", ownFormula: "estonian_nilson" });
    const nilson = withPine.find((r) => r.formula === "estonian_nilson")!;
    expect(nilson.total).toBeGreaterThan(0);
    expect(nilson.own).toBe(true);
    expect(withPine[0].differenceM3).toBeCloseTo(withPine[0].totalM3! - nilson.totalM3!, 12);
  });

  it("an own formula a photo cannot give (huber) leaves the differences empty", () => {
    const rows = compareFormulas({ ...logs, ownFormula: "huber" });
    expect(rows.every((r) => r.differenceM3 === null && !r.own)).toBe(true);
  });
});

describe("compareFormulas on a container measurement (issue 24: every formula on every photographed kind)", () => {
  // The container worked example of container.test.ts: a reference 1 m long drawn 500 px wide
  // (5 px per cm), logs of r 75, 40 and 33 px (30, 16 and 13.2 cm) at 4 m, one deleted log.
  const REF = [{ x1: 0, y1: 100, x2: 500, y2: 100, size: 1 }];
  const container = computeContainerMeasurement(
    [
      { x: 10, y: 10, r: 75 },
      { x: 20, y: 20, r: 40 },
      { x: 30, y: 30, r: 33 },
      { x: 40, y: 40, r: 100, isDeleted: true },
    ],
    { references: REF, logLengthM: 4 },
  );
  const rows = compareFormulas({
    diametersCm: container.logs.filter((l) => !l.isDeleted).map((l) => l.d),
    lengthM: 4,
    ownFormula: "jas",
  });

  it("the JAS row is the measurement's own and equals its stored volume: 0.36 + 0.1024 + 0.0676 = 0.53 m³", () => {
    const jas = rows.find((r) => r.formula === "jas")!;
    expect(jas.own).toBe(true);
    expect(jas.totalM3).toBe(container.volumeM3);
    expect(jas.totalM3).toBeCloseTo(0.53, 10);
    expect(jas.differenceM3).toBe(0);
  });

  it("the cylinder row by hand: pi/4 x (0.30² + 0.16² + 0.132²) x 4 = 0.417907 m³, −0.112093 m³ against JAS", () => {
    const cyl = rows.find((r) => r.formula === "cylinder")!;
    const byHand = (Math.PI / 4) * (0.09 + 0.0256 + 0.132 * 0.132) * 4;
    expect(cyl.totalM3).toBeCloseTo(byHand, 9);
    expect(byHand).toBeCloseTo(0.4179072, 6);
    expect(cyl.differenceM3).toBeCloseTo(-0.1120928, 6);
    expect(cyl.differenceM3).toBeCloseTo(byHand - 0.53, 9);
    expect(cyl.differencePercent).toBeCloseTo(((byHand - 0.53) / 0.53) * 100, 9);
  });
});
