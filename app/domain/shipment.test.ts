import { describe, expect, it } from "vitest";
import { paginationWindow, shipmentSides, shipmentVolume, truckDiameterFigures } from "./shipment";

describe("paginationWindow", () => {
  it("on the first page: pages 1-3, no first or previous", () => {
    expect(paginationWindow(1, 10)).toEqual({ pages: [1, 2, 3], first: null, prev: null, next: 2, last: 10 });
  });
  it("in the middle: the current page between its neighbours", () => {
    expect(paginationWindow(5, 10)).toEqual({ pages: [4, 5, 6], first: 1, prev: 4, next: 6, last: 10 });
  });
  it("on the last page: the last three, no next or last", () => {
    expect(paginationWindow(10, 10)).toEqual({ pages: [8, 9, 10], first: 1, prev: 9, next: null, last: null });
  });
  it("fewer pages than the window, and out-of-range pages clamped", () => {
    expect(paginationWindow(2, 2)).toEqual({ pages: [1, 2], first: 1, prev: 1, next: null, last: null });
    expect(paginationWindow(1, 0)).toEqual({ pages: [1], first: null, prev: null, next: null, last: null });
    expect(paginationWindow(99, 4).pages).toEqual([2, 3, 4]);
  });
});

describe("truckDiameterFigures", () => {
  // A 1 m reference 400 px long: 4 px per cm. A log of radius 40 px is 20 cm across.
  const references = [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }];
  it("diameters from the scale, volumes by the formula (cylinder: pi/4 d^2 L)", () => {
    const r = truckDiameterFigures(
      [
        { x: 100, y: 100, r: 40 },
        { x: 300, y: 100, r: 60 },
        { x: 500, y: 100, r: 50, isDeleted: true },
      ],
      { references, formula: "cylinder", logLengthM: 3 },
    );
    expect(r.logs.map((l) => l.d)).toEqual([20, 30, 25]);
    // 0.2 m: pi/4 * 0.04 * 3 = 0.0942478; 0.3 m: pi/4 * 0.09 * 3 = 0.2120575
    expect(r.logs[0].v).toBeCloseTo(0.0942478, 6);
    expect(r.logs[1].v).toBeCloseTo(0.2120575, 6);
    expect(r.volumeM3).toBeCloseTo(0.3063053, 6);
    expect(r.logsCount).toBe(2);
  });
  it("without a reference: counted, nothing sized", () => {
    const r = truckDiameterFigures([{ x: 1, y: 1, r: 5 }], { references: [], formula: "cylinder", logLengthM: 3 });
    expect(r).toEqual({ logs: [{ x: 1, y: 1, r: 5, d: 0, v: 0 }], volumeM3: 0, logsCount: 1 });
  });
});

describe("shipmentSides", () => {
  it("logs from truck-diameter measurements, volume from truck loads where there are any", () => {
    const sides = shipmentSides(
      [
        { typeId: 1, volume: 20.5 },
        { typeId: 1, volume: 19.5 },
        { typeId: 0, volume: 99 },
      ],
      [
        { typeId: 1, logsCount: 120, volume: 38 },
        { typeId: 2, logsCount: 110, volume: 35.25 },
        { typeId: 2, logsCount: 5, volume: 1.5 },
      ],
    );
    expect(sides).toEqual({
      incoming: { measurements: 3, logsCount: 120, volume: 40 },
      outgoing: { measurements: 2, logsCount: 115, volume: 36.75 },
    });
    expect(shipmentVolume(sides)).toBe(40);
  });
  it("grouped rows carry their count; a shipment measured only at the supplier totals its outgoing side", () => {
    const sides = shipmentSides([], [{ typeId: 2, count: 3, logsCount: 300, volume: 90 }]);
    expect(sides.incoming).toEqual({ measurements: 0, logsCount: 0, volume: 0 });
    expect(sides.outgoing).toEqual({ measurements: 3, logsCount: 300, volume: 90 });
    expect(shipmentVolume(sides)).toBe(90);
  });
});
