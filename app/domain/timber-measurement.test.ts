import { describe, expect, it } from "vitest";
import { cubicMetresToFormulaUnit, formulaVolumeToCubicMetres } from "./timber-measurement";

describe("a stored m³ volume in the formula's own unit", () => {
  it("keeps m³ for the solid-volume formulas", () => {
    expect(cubicMetresToFormulaUnit(12.345, "cylinder")).toEqual({ value: 12.345, unit: "m^3" });
    expect(cubicMetresToFormulaUnit(12.345, "jas")).toEqual({ value: 12.345, unit: "m^3" });
  });

  it("gives board feet for the board-foot rules: 1 FBM is 1/12 ft³ = 0.002359737216 m³", () => {
    const r = cubicMetresToFormulaUnit(100 * 0.002359737216, "doyle");
    expect(r.unit).toBe("fbm");
    expect(r.value).toBeCloseTo(100, 9);
    // 1 m³ is 423.776 board feet.
    expect(cubicMetresToFormulaUnit(1, "scribner_decimal_c").value).toBeCloseTo(423.776, 5);
  });

  it("gives hoppus m³ for Hoppus: one hoppus m³ is 4/π true m³", () => {
    const r = cubicMetresToFormulaUnit(4 / Math.PI, "hoppus");
    expect(r).toEqual({ value: expect.closeTo(1, 12), unit: "hoppus_m^3" });
    expect(cubicMetresToFormulaUnit(1, "hoppus").value).toBeCloseTo(Math.PI / 4, 12);
  });

  it("is the inverse of formulaVolumeToCubicMetres, and keeps m³ for an unknown formula", () => {
    for (const formula of ["cylinder", "doyle", "hoppus", "international_quarter_inch"]) {
      const { value } = cubicMetresToFormulaUnit(7.25, formula);
      expect(formulaVolumeToCubicMetres(value, formula)).toBeCloseTo(7.25, 10);
    }
    expect(cubicMetresToFormulaUnit(3, "no_such_formula")).toEqual({ value: 3, unit: "m^3" });
  });
});
