import { describe, expect, it } from "vitest";
import { classifyLog, summarizeMeasurement } from "./summary";
import { woodYardSummary, woodYardTotals } from "./wood-yard";

describe("classifyLog", () => {
  const assortments = [
    { id: 1, minDiameterCm: 10, maxDiameterCm: 19.9, priceCents: 4000 },
    { id: 2, minDiameterCm: 20, maxDiameterCm: 40, priceCents: 6000 },
  ];
  it("agrees with summarizeMeasurement: a cull wins, then the log's own assortment, then the diameter range", () => {
    const logs = [
      { d: 12, v: 0.1 },
      { d: 25, v: 0.3, cullId: 7 },
      { d: 25, v: 0.4, assortmentId: 1 },
      { d: 30, v: 0.5 },
      { d: 50, v: 0.9 },
    ];
    const classes = logs.map((l) => classifyLog(l, { assortments }));
    expect(classes).toEqual([
      { cullId: null, assortmentId: 1 },
      { cullId: 7, assortmentId: null },
      { cullId: null, assortmentId: 1 },
      { cullId: null, assortmentId: 2 },
      { cullId: null, assortmentId: null },
    ]);
    const s = summarizeMeasurement(logs, { assortments });
    // Assortment 1: 0.1 + 0.4 = 0.5 m³ at 40.00 = 20.00; assortment 2: 0.5 m³ at 60.00 = 30.00.
    expect(s.byAssortment.map((a) => [a.assortmentId, a.count, a.volume, a.valueCents])).toEqual([
      [1, 2, 0.5, 2000],
      [2, 1, 0.5, 3000],
      [null, 1, 0.9, 0],
    ]);
  });
});

describe("woodYardSummary", () => {
  it("adds the measurements' lines per month and assortment, culls and unassigned last", () => {
    const rows = woodYardSummary(
      [
        {
          month: "2026-10",
          byAssortment: [
            { assortmentId: 2, count: 3, volume: 0.6, valueCents: 3600 },
            { assortmentId: 1, count: 2, volume: 0.2, valueCents: 800 },
          ],
          culled: { count: 1, volume: 0.05 },
        },
        {
          month: "2026-11",
          byAssortment: [{ assortmentId: 1, count: 4, volume: 0.45, valueCents: 1800 }],
          culled: { count: 0, volume: 0 },
        },
        {
          month: "2026-10",
          byAssortment: [
            { assortmentId: 2, count: 1, volume: 0.25, valueCents: 1500 },
            { assortmentId: null, count: 2, volume: 0.1, valueCents: 0 },
          ],
          culled: { count: 2, volume: 0.1 },
        },
      ],
      [1, 2],
    );
    expect(
      rows.map((r) => [r.month, r.culled ? "cull" : r.assortmentId, r.count, +r.volume.toFixed(6), r.valueCents]),
    ).toEqual([
      ["2026-10", 1, 2, 0.2, 800],
      ["2026-10", 2, 4, 0.85, 5100],
      ["2026-10", null, 2, 0.1, 0],
      ["2026-10", "cull", 3, 0.15, 0],
      ["2026-11", 1, 4, 0.45, 1800],
    ]);
    const total = woodYardTotals(rows);
    expect([total.count, +total.volume.toFixed(6), total.valueCents]).toEqual([15, 1.75, 7700]);
  });
});
