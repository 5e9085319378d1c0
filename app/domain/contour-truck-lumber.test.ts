import { describe, expect, it } from "vitest";
import { containerJasVolume, containerTotals, sumContainerTotals } from "./container";
import {
  contourVolume,
  measuredCoefficient,
  normaliseCoefficient,
  pileHeightFromLoadLines,
  pileHeightFromProfile,
  pileHeightFromSamples,
  polygonAreaM2,
  polygonAreaPx,
  solidVolumeM3,
} from "./contour";
import { InvalidInputError } from "./errors";
import { lumberDimensionsToMm, lumberMeasurementVolumeM3, lumberVolumeM3, plankCount } from "./lumber";
import { createScaleField } from "./reference-scale";
import { truckLoadVolume, truckVolume } from "./truck";

const square = [
  { x: 0, y: 0 },
  { x: 1000, y: 0 },
  { x: 1000, y: 1000 },
  { x: 0, y: 1000 },
];

describe("contour method", () => {
  it("shoelace area in px^2 for either winding", () => {
    expect(polygonAreaPx(square)).toBe(1_000_000);
    expect(polygonAreaPx([...square].reverse())).toBe(1_000_000);
    expect(
      polygonAreaPx([
        { x: 0, y: 0 },
        { x: 4, y: 0 },
        { x: 0, y: 3 },
      ]),
    ).toBe(6);
    expect(polygonAreaPx(square.slice(0, 2))).toBe(0);
  });
  it("1000 px square at 5 px/cm is 2 m x 2 m = 4 m^2", () => {
    expect(polygonAreaM2(square, 5)).toBe(4);
    const field = createScaleField([{ x1: 300, y1: 500, x2: 700, y2: 500, size: 0.8 }]);
    expect(polygonAreaM2(square, field)).toBe(4);
  });
  it("stacked = area x length, solid = stacked x coefficient", () => {
    const v = contourVolume({ polygon: square, scale: 5, logLengthM: 3, coefficient: 0.65 });
    expect(v).toEqual({ areaM2: 4, stackedM3: 12, solidM3: 12 * 0.65, coefficient: 0.65 });
    expect(solidVolumeM3(12, 0.65004)).toBeCloseTo(7.8, 12);
  });
  it("coefficient must be 0..1 and is kept to 4 decimals", () => {
    expect(normaliseCoefficient(0.123456)).toBe(0.1235);
    expect(() => normaliseCoefficient(1.01)).toThrow(InvalidInputError);
    expect(() => normaliseCoefficient(-0.1)).toThrow(InvalidInputError);
    expect(() => normaliseCoefficient(Number.NaN)).toThrow(InvalidInputError);
  });
  it("measured coefficient = log end area / face area, deleted logs ignored", () => {
    const logs = [{ r: 100 }, { r: 100 }, { r: 300, isDeleted: true }];
    expect(measuredCoefficient(logs, square)).toBe(0.0628); // 2 x pi x 100^2 / 1e6
    expect(measuredCoefficient([{ r: 2000 }], square)).toBe(1);
  });
  it("pile height from samples, load lines and a top profile", () => {
    expect(pileHeightFromSamples([2, 2.4, 0, -1])).toBeCloseTo(2.2, 12);
    expect(
      pileHeightFromLoadLines(
        [
          { x1: 0, y1: 0, x2: 0, y2: 1000 },
          { x1: 50, y1: 100, x2: 50, y2: 1000 },
        ],
        5,
      ),
    ).toBe(1.9);
    const profile = [
      { x: 0, y: 0 },
      { x: 1000, y: 500 },
    ];
    // heights fall linearly from 2 m to 1 m; the mean of evenly spaced samples is 1.5 m
    expect(pileHeightFromProfile(profile, 1000, 5, 11)).toBeCloseTo(1.5, 12);
  });
});

describe("truck loads", () => {
  it("each load: height x width x length, solid with the coefficient; total of loads", () => {
    expect(truckLoadVolume({ heightM: 2.5, loadWidthM: 2.4, logLengthM: 3, coefficient: 0.68 })).toEqual({
      stackedM3: 18,
      solidM3: 12.24,
    });
    const t = truckVolume([
      { heightM: 2.5, loadWidthM: 2.4, logLengthM: 3, coefficient: 0.68 },
      { heightM: 2, loadWidthM: 2.5, logLengthM: 6, coefficient: 0.6 },
    ]);
    expect(t.stackedM3).toBe(48);
    expect(t.solidM3).toBeCloseTo(30.24, 12);
    expect(t.loads).toHaveLength(2);
    expect(() => truckLoadVolume({ heightM: -1, loadWidthM: 2, logLengthM: 3, coefficient: 0.5 })).toThrow(/heightM/);
  });
});

describe("containers (JAS)", () => {
  it("sums per-log JAS volumes, skips deleted logs, averages the JAS diameter", () => {
    const logs = [
      { diameterCm: 31.9 },
      { diameterCm: 24.2 },
      { diameterCm: 13.7 },
      { diameterCm: 50, isDeleted: true },
    ];
    // 30^2 x 4 = 0.36, 24^2 x 4 = 0.2304, 13^2 x 4 = 0.0676
    const r = containerJasVolume(logs, 4);
    expect(r.logCount).toBe(3);
    expect(r.volumeM3).toBeCloseTo(0.658, 12);
    expect(r.averageJasDiameterCm).toBeCloseTo(67 / 3, 12);
  });
  it("container and bill-of-lading totals", () => {
    const totals = containerTotals([
      { containerId: "C1", logs: [{ diameterCm: 30 }], logLengthM: 4 },
      { containerId: "C2", logs: [{ diameterCm: 20 }, { diameterCm: 20 }], logLengthM: 6 },
      { containerId: "C1", logs: [{ diameterCm: 24 }], logLengthM: 4 },
    ]);
    expect(totals).toEqual([
      { containerId: "C1", measurementCount: 2, logCount: 2, volumeM3: expect.closeTo(0.5904, 12) },
      { containerId: "C2", measurementCount: 1, logCount: 2, volumeM3: expect.closeTo(0.5292, 12) }, // 21^2 x 6 x 2
    ]);
    expect(sumContainerTotals(totals).logCount).toBe(4);
    expect(sumContainerTotals(totals).volumeM3).toBeCloseTo(1.1196, 12);
  });
});

describe("lumber (dimensions in mm)", () => {
  it("volume = count x l x w x h", () => {
    expect(lumberVolumeM3(100, { lengthMm: 4200, widthMm: 150, heightMm: 50 })).toBeCloseTo(3.15, 12);
    expect(lumberDimensionsToMm({ length: 4.2, width: 0.15, height: 0.05 }, "m")).toEqual({
      lengthMm: 4200,
      widthMm: 150,
      heightMm: 50,
    });
    expect(lumberDimensionsToMm({ length: 1, width: 1, height: 1 }, "in").widthMm).toBeCloseTo(25.4, 12);
    expect(() => lumberVolumeM3(1.5, { lengthMm: 1, widthMm: 1, heightMm: 1 })).toThrow(InvalidInputError);
  });
  it("plank count excludes deleted rectangles", () => {
    const planks = [
      { x: 0, y: 0, width: 10, height: 5 },
      { x: 10, y: 0, width: 10, height: 5, isDeleted: true },
      { x: 20, y: 0, width: 10, height: 5, isDeleted: false },
    ];
    expect(plankCount(planks)).toBe(2);
    expect(lumberMeasurementVolumeM3(planks, { lengthMm: 3000, widthMm: 100, heightMm: 25 })).toBeCloseTo(0.015, 12);
  });
});
