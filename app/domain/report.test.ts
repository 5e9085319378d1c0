import { describe, expect, it } from "vitest";
import {
  createReportLogMeter,
  createReportTally,
  lacksAssortment,
  reportDeliveryBlocks,
  reportInvoiceLines,
  type ReportAssortment,
  type ReportTallyOptions,
} from "./report";

// Two measurements of one delivery, tallied by hand:
// A: 4 m logs, assortment 1 (spruce sawlog, 50.00 per m³) on the measurement;
//    logs 20.4 cm (no own assortment -> 1), 30.0 cm (own assortment 2, pulpwood, 12.50 per log),
//    25.0 cm culled (cull 9, rot), 50 cm deleted (ignored).
// B: 3 m logs, no assortment; one log 20.9 cm with own assortment 1.
const assortments: ReportAssortment[] = [
  { id: 1, name: "Spruce sawlog", priceCents: 5000, pricePerLogCents: null, volumeUnit: "m^3" },
  { id: 2, name: "Pulpwood", priceCents: 900, pricePerLogCents: 1250, volumeUnit: "m^3" },
];
const culls = [{ id: 9, name: "Rot" }];

function tally(options: Pick<ReportTallyOptions, "formula" | "unit">) {
  const t = createReportTally({ ...options, assortments, culls });
  t.addMeasurement({ logLengthM: 4, assortmentId: 1 }, [
    { d: 20.4, cullId: null, assortmentId: null },
    { d: 30, cullId: null, assortmentId: 2 },
    { d: 25, cullId: 9, assortmentId: null },
    { d: 50, cullId: null, assortmentId: null, isDeleted: true },
  ]);
  t.addMeasurement({ logLengthM: 3, assortmentId: null }, [{ d: 20.9, cullId: null, assortmentId: 1 }]);
  return t.finish();
}

describe("report tallies", () => {
  it("JAS, m³: diameters to even cm, D² x L / 10000, prices per m³ and per log", () => {
    const r = tally({ formula: "jas", unit: "m^3" });
    // 20.4 -> 20: 400 x 4 / 1e4 = 0.16; 30 -> 30: 900 x 4 / 1e4 = 0.36; 25 -> 24: 576 x 4 / 1e4 = 0.2304;
    // 20.9 -> 20 at 3 m: 400 x 3 / 1e4 = 0.12.
    expect(r.logs).toEqual([
      { diameter: 20, log_count: 2, volume: expect.closeTo(0.28, 10), characteristic_id: 1, cull_id: null },
      { diameter: 25, log_count: 1, volume: expect.closeTo(0.2304, 10), characteristic_id: null, cull_id: 9 },
      { diameter: 30, log_count: 1, volume: expect.closeTo(0.36, 10), characteristic_id: 2, cull_id: null },
    ]);
    // Value: 0.28 m³ x 50.00 = 14.00; pulpwood by the log: 1 x 12.50 (its per-m³ price is not used).
    expect(r.characteristics.map((c) => [c.id, c.log_count, c.value])).toEqual([
      [1, 2, 14],
      [2, 1, 12.5],
    ]);
    expect(r.culls).toEqual([{ id: 9, name: "Rot", log_count: 1, volume: expect.closeTo(0.2304, 10) }]);
    expect(r.totals.log_count).toBe(4);
    expect(r.totals.volume).toBeCloseTo(0.16 + 0.36 + 0.2304 + 0.12, 10);
    expect(r.totals.cull_log_count).toBe(1);
    expect(r.totals.value).toBe(26.5);
    expect(r.measurements_count).toBe(2);
  });

  it("cylinder, m³ and ft³: pi/4 x d² x L, whatever the measurements were measured with", () => {
    const r = tally({ formula: "cylinder", unit: "m^3" });
    const v = (d: number, l: number) => (Math.PI / 4) * (d / 100) ** 2 * l;
    // Class 20: 0.7853982 x (0.041616 x 4 + 0.04368100 x 3) = 0.7853982 x 0.297507 = 0.2336617 m³
    const class20 = v(20.4, 4) + v(20.9, 3);
    expect(class20).toBeCloseTo(0.2336617, 6);
    expect(r.logs[0]).toMatchObject({ diameter: 20, log_count: 2, characteristic_id: 1 });
    expect(r.logs[0].volume).toBeCloseTo(class20, 10);
    // 0.2336617 m³ x 50.00 = 11.683 -> 11.68 (whole cents once per line)
    expect(r.characteristics[0].value).toBe(11.68);
    expect(r.totals.value).toBe(11.68 + 12.5);
    expect(r.totals.volume).toBeCloseTo(v(20.4, 4) + v(30, 4) + v(25, 4) + v(20.9, 3), 10);

    const ft3 = tally({ formula: "cylinder", unit: "ft^3" });
    // 1 ft³ = 0.028316846592 m³: the volumes change unit, the money does not (priced per m³).
    expect(ft3.logs[0].volume).toBeCloseTo(class20 / 0.028316846592, 8);
    expect(ft3.totals.value).toBe(r.totals.value);
  });

  it("the add rule: a measurement without an assortment with an unsorted, unculled live log", () => {
    expect(lacksAssortment({ assortmentId: null }, [{ assortmentId: null, cullId: null }])).toBe(true);
    expect(lacksAssortment({ assortmentId: null }, [{ assortmentId: null, cullId: 3 }])).toBe(false);
    expect(lacksAssortment({ assortmentId: null }, [{ assortmentId: null, cullId: null, isDeleted: true }])).toBe(
      false,
    );
    expect(lacksAssortment({ assortmentId: 4 }, [{ assortmentId: null, cullId: null }])).toBe(false);
  });

  it("the log meter is the tally's rule: its logs add up to the tally (tally sheet, log-by-log)", () => {
    const meter = createReportLogMeter("jas", "m^3");
    const a = { logLengthM: 4, assortmentId: 1 };
    const logs = [
      meter(a, { d: 20.4, cullId: null, assortmentId: null }),
      meter(a, { d: 30, cullId: null, assortmentId: 2 }),
      meter(a, { d: 25, cullId: 9, assortmentId: null }),
      meter(a, { d: 50, cullId: null, assortmentId: null, isDeleted: true }),
      meter({ logLengthM: 3, assortmentId: null }, { d: 20.9, cullId: null, assortmentId: 1 }),
    ];
    expect(logs[3]).toBeNull();
    // JAS scaling: 25 -> 24 (even cm from 14); the report's class stays 25.
    expect(logs[2]).toMatchObject({ diameter: 25, scaleDiameter: 24, characteristicId: null, cullId: 9 });
    expect(logs[0]).toMatchObject({ diameter: 20, scaleDiameter: 20, characteristicId: 1, volume: 0.16 });
    const sum = logs.reduce((s, l) => s + (l?.volume ?? 0), 0);
    expect(sum).toBeCloseTo(tally({ formula: "jas", unit: "m^3" }).totals.volume, 12);
    // Under cylinder the scaling diameter is the class.
    expect(createReportLogMeter("cylinder", "m^3")(a, { d: 25.7, cullId: null, assortmentId: null })).toMatchObject({
      diameter: 25,
      scaleDiameter: 25,
    });
  });

  it("the delivery sheet regroups the tally per assortment, unsorted and cull, adding up to its totals", () => {
    const r = tally({ formula: "jas", unit: "m^3" });
    const blocks = reportDeliveryBlocks(r);
    expect(blocks.map((b) => [b.kind, b.id, b.name, b.log_count, b.value])).toEqual([
      ["assortment", 1, "Spruce sawlog", 2, 14],
      ["assortment", 2, "Pulpwood", 1, 12.5],
      ["cull", 9, "Rot", 1, null],
    ]);
    expect(blocks[0].lines).toEqual([{ diameter: 20, log_count: 2, volume: expect.closeTo(0.28, 10) }]);
    expect(blocks.reduce((s, b) => s + b.log_count, 0)).toBe(r.totals.log_count);
    expect(blocks.reduce((s, b) => s + b.volume, 0)).toBeCloseTo(r.totals.volume, 12);
    // A log without any assortment gets a block of its own, after the assortments.
    const t = createReportTally({ formula: "jas", unit: "m^3", assortments, culls });
    t.addMeasurement({ logLengthM: 4, assortmentId: null }, [
      { d: 16, cullId: null, assortmentId: null },
      { d: 22, cullId: null, assortmentId: 1 },
    ]);
    expect(reportDeliveryBlocks(t.finish()).map((b) => [b.kind, b.log_count, b.volume])).toEqual([
      ["assortment", 1, expect.closeTo(0.1936, 10)],
      ["unsorted", 1, expect.closeTo(0.1024, 10)],
    ]);
  });

  it("the invoice's lines: logs x price per log, or volume x price per unit; the net is the report's value", () => {
    const r = tally({ formula: "jas", unit: "m^3" });
    const invoice = reportInvoiceLines(r, "m^3");
    expect(invoice.lines).toEqual([
      {
        id: 1,
        name: "Spruce sawlog",
        log_count: 2,
        basis: "volume",
        quantity: expect.closeTo(0.28, 10),
        quantity_unit: "m^3",
        unit_price: 50,
        amount: 14,
      },
      {
        id: 2,
        name: "Pulpwood",
        log_count: 1,
        basis: "log",
        quantity: 1,
        quantity_unit: "log",
        unit_price: 12.5,
        amount: 12.5,
      },
    ]);
    expect(invoice.net).toBe(r.totals.value);
    // A report in ft³ prices the same solid m³: the quantity stays in the price's unit, so
    // quantity x unit price is the amount.
    const ft3 = reportInvoiceLines(tally({ formula: "jas", unit: "ft^3" }), "ft^3");
    expect(ft3.lines[0]).toMatchObject({ quantity: expect.closeTo(0.28, 10), quantity_unit: "m^3", amount: 14 });
    // A tally stored before the priced quantity was kept: the report's volume, converted.
    const old = tally({ formula: "jas", unit: "ft^3" });
    delete old.characteristics[0].priced_quantity;
    expect(reportInvoiceLines(old, "ft^3").lines[0].quantity).toBeCloseTo(0.28, 10);
  });
});
