import { describe, expect, it } from "vitest";
import { billOfLadingInvoice, sumJasVolumes, type InvoiceAssortment } from "./container-invoice";

// The worked example of the invoice (docs/decisions/026-exports-and-labels.md), the same logs as
// the tally sheet's test: JAS 30, 16 and 13 cm at 4 m (0.36 + 0.1024 + 0.0676 = 0.53 m³) and
// JAS 22 cm at 8 m (0.3872 m³) without an assortment of their own, so under the bill's "Sugi A"
// at 125.50 per m³: 0.9172 m³ x 12 550 = 11 510.86 cents -> 11 511 (115.11).
// One 30 cm log at 4 m (0.36 m³) of "Hinoki", 8.75 per log: 875 cents.
// 0.1 m³ of "Pine" priced 3.00 per ft³: 0.1 m³ = 3.5314667 ft³ x 300 = 1059.44 -> 1059 cents.
// A measurement of an assortment the organisation does not have: a line without price.
// Total: 11 511 + 875 + 1 059 = 13 445 cents (134.45).

const ASSORTMENTS: InvoiceAssortment[] = [
  { id: 2, name: "Hinoki", priceCents: 5000, pricePerLogCents: 875, volumeUnit: "m^3" },
  { id: 3, name: "Pine", priceCents: 300, pricePerLogCents: null, volumeUnit: "ft^3" },
  { id: 1, name: "Sugi A", priceCents: 12550, pricePerLogCents: 0, volumeUnit: null },
  { id: 4, name: "Unused", priceCents: 100, pricePerLogCents: null, volumeUnit: "m^3" },
];

describe("bill of lading invoice", () => {
  it("prices each assortment's JAS volume and adds the rounded lines (worked example)", () => {
    const inv = billOfLadingInvoice(
      [
        { assortmentId: null, logCount: 3, volumeM3: 0.36 + 0.1024 + 0.0676 },
        { assortmentId: 2, logCount: 1, volumeM3: 0.36 },
        { assortmentId: null, logCount: 1, volumeM3: 0.3872 },
        { assortmentId: 3, logCount: 1, volumeM3: 0.1 },
        { assortmentId: 99, logCount: 2, volumeM3: 0.2 },
      ],
      ASSORTMENTS,
      1,
    );
    expect(
      inv.lines.map((l) => [l.name, l.logCount, l.volumeM3, l.priceBasis, l.unitPriceCents, l.valueCents]),
    ).toEqual([
      ["Hinoki", 1, 0.36, "log", 875, 875],
      ["Pine", 1, 0.1, "ft^3", 300, 1059],
      ["Sugi A", 4, 0.9172, "m^3", 12550, 11511],
      [null, 2, 0.2, null, null, 0],
    ]);
    expect(inv.lines[0]!.pricedQuantity).toBe(1);
    expect(inv.lines[1]!.pricedQuantity).toBeCloseTo(3.5314667, 6);
    expect(inv.lines[2]!.pricedQuantity).toBe(0.9172);
    expect(inv.totalCents).toBe(13445);
    expect(inv.logCount).toBe(8);
    expect(inv.volumeM3).toBe(1.5772);
  });

  it("without a bill assortment, unassigned measurements are the line without price", () => {
    const inv = billOfLadingInvoice([{ assortmentId: null, logCount: 3, volumeM3: 0.53 }], ASSORTMENTS, null);
    expect(inv.lines).toEqual([
      {
        assortmentId: null,
        name: null,
        logCount: 3,
        volumeM3: 0.53,
        priceBasis: null,
        unitPriceCents: null,
        pricedQuantity: null,
        valueCents: 0,
      },
    ]);
    expect(inv.totalCents).toBe(0);
  });

  it("carries no float drift: volumes are summed to 7 decimals, cents rounded half up once per line", () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point.
    expect(sumJasVolumes([0.1, 0.2])).toBe(0.3);
    expect(sumJasVolumes(Array.from({ length: 1000 }, () => 0.0676))).toBe(67.6);
    // 0.3005 m³ x 1000 cents = 300.5 cents: half up to 301 (Math.round(300.49999…) would give 300).
    const inv = billOfLadingInvoice(
      [
        { assortmentId: 4, logCount: 2, volumeM3: 0.1 },
        { assortmentId: 4, logCount: 1, volumeM3: 0.2 },
        { assortmentId: 4, logCount: 1, volumeM3: 0.0005 },
      ],
      [{ id: 4, name: "X", priceCents: 1000, pricePerLogCents: null, volumeUnit: "m^3" }],
      null,
    );
    expect(inv.lines[0]!.volumeM3).toBe(0.3005);
    expect(inv.lines[0]!.valueCents).toBe(301);
    // An assortment without any price: a line with its volume and no value.
    const free = billOfLadingInvoice(
      [{ assortmentId: 5, logCount: 1, volumeM3: 0.36 }],
      [{ id: 5, name: "Free", priceCents: null, pricePerLogCents: null, volumeUnit: null }],
      null,
    );
    expect(free.lines[0]).toMatchObject({ name: "Free", priceBasis: null, unitPriceCents: null, valueCents: 0 });
  });
});
