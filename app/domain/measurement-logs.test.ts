import { describe, expect, it } from "vitest";
import { computeMeasurementLogs } from "./measurement-logs";

describe("computeMeasurementLogs", () => {
  // A 1 m reference 400 px long gives 4 px/cm: a circle of radius 40 px is a 20 cm log.
  const references = [{ x1: 100, y1: 50, x2: 500, y2: 50, size: 1 }];

  it("turns pixel circles into diameters and cylinder volumes", () => {
    const result = computeMeasurementLogs(
      [
        { x: 200, y: 300, r: 40 },
        { x: 400, y: 300, r: 60 },
      ],
      { references, formula: "cylinder", lengthM: 3 },
    );
    expect(result.logs.map((l) => l.d)).toEqual([20, 30]);
    // π/4 · 0.2² · 3 = 0.0942478, π/4 · 0.3² · 3 = 0.2120575
    expect(result.logs[0].v).toBeCloseTo(0.0942478, 6);
    expect(result.logs[1].v).toBeCloseTo(0.2120575, 6);
    expect(result.volume).toBeCloseTo(0.3063053, 6);
    expect(result.logsCount).toBe(2);
  });

  it("leaves deleted logs out of the totals but still sizes them", () => {
    const result = computeMeasurementLogs(
      [
        { x: 200, y: 300, r: 40 },
        { x: 400, y: 300, r: 60, isDeleted: true },
      ],
      { references, formula: "cylinder", lengthM: 3 },
    );
    expect(result.logsCount).toBe(1);
    expect(result.volume).toBeCloseTo(0.0942478, 6);
    expect(result.logs[1].d).toBe(30);
  });
});
