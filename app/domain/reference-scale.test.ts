import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./errors";
import {
  createScaleField,
  diameterCmFromRadiusPx,
  logDiameterCm,
  meanPixelsPerCm,
  pixelsPerCm,
  referenceSizeToMetres,
} from "./reference-scale";

const ref = (x1: number, y1: number, x2: number, y2: number, size: number) => ({ x1, y1, x2, y2, size });

describe("pixels per cm", () => {
  it("a 1 m reference 500 px long gives 5 px/cm (3-4-5 triangle)", () => {
    expect(pixelsPerCm(ref(0, 0, 300, 400, 1))).toBe(5);
  });
  it("reference sizes entered in cm or ft are stored in metres", () => {
    expect(referenceSizeToMetres(100, "cm")).toBe(1);
    expect(referenceSizeToMetres(4, "ft")).toBeCloseTo(1.2192, 12);
  });
  it("rejects zero size and zero-length references", () => {
    expect(() => pixelsPerCm(ref(0, 0, 10, 0, 0))).toThrow(InvalidInputError);
    expect(() => pixelsPerCm(ref(5, 5, 5, 5, 1))).toThrow(InvalidInputError);
    expect(() => meanPixelsPerCm([])).toThrow(InvalidInputError);
  });
  it("mean of several references", () => {
    expect(meanPixelsPerCm([ref(0, 0, 400, 0, 1), ref(0, 100, 600, 100, 1)])).toBe(5);
  });
});

describe("scale field", () => {
  const left = ref(0, 500, 400, 500, 1); // 4 px/cm centred at (200, 500)
  const right = ref(1600, 500, 2200, 500, 1); // 6 px/cm centred at (1900, 500)
  it("auto uses the mean when references agree within 1 %", () => {
    const f = createScaleField([ref(0, 0, 500, 0, 1), ref(0, 900, 504, 900, 1)]);
    expect(f.method).toBe("mean");
    expect(f.at(0, 0)).toBeCloseTo(5.02, 12);
  });
  it("auto uses inverse-distance weighting when they disagree", () => {
    const f = createScaleField([left, right]);
    expect(f.method).toBe("idw");
    expect(f.at(200, 500)).toBe(4);
    expect(f.at(1900, 500)).toBe(6);
    expect(f.at(1050, 500)).toBeCloseTo(5, 12); // equidistant
    expect(f.at(10000, 500)).toBeLessThanOrEqual(6);
  });
  it("linear fit follows a perspective gradient and clamps to the references range", () => {
    const f = createScaleField([left, right], "linear");
    expect(f.at(200, 500)).toBeCloseTo(4, 9);
    expect(f.at(1050, 500)).toBeCloseTo(5, 9);
    expect(f.at(5000, 500)).toBe(6);
    const plane = createScaleField(
      [ref(0, 0, 400, 0, 1), ref(1000, 0, 1500, 0, 1), ref(0, 1000, 600, 1000, 1)],
      "linear",
    );
    // centres (200,0)=4, (1250,0)=5, (300,1000)=6: exact plane through three points
    expect(plane.at(200, 0)).toBeCloseTo(4, 9);
    expect(plane.at(1250, 0)).toBeCloseTo(5, 9);
    expect(plane.at(300, 1000)).toBeCloseTo(6, 9);
  });
  it("log diameter from radius at its position", () => {
    expect(diameterCmFromRadiusPx(50, 5)).toBe(20);
    const f = createScaleField([left, right]);
    expect(logDiameterCm({ x: 1900, y: 500, r: 60 }, f)).toBe(20);
    expect(() => diameterCmFromRadiusPx(10, 0)).toThrow(InvalidInputError);
  });
});
