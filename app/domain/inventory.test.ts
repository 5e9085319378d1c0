import { describe, expect, it } from "vitest";
import { inventoryFigures, volumeToM3, type InventoryRow } from "./inventory";

const row = (
  r: Partial<InventoryRow> & Pick<InventoryRow, "measurementKey" | "measurementTypeId" | "volume">,
): InventoryRow => ({
  part: "counted",
  formula: "cylinder",
  coefficient: null,
  itemKey: null,
  itemName: null,
  logVolume: null,
  ...r,
});

describe("inventoryFigures", () => {
  it("works the issue's example: opening 7.05, incoming 3, outgoing 0, measured 7 → diff −3.05", () => {
    const f = inventoryFigures([
      // The previous inventory: stock 5 split by its logs 2 : 2 between A and B... (only stock and control count)
      row({
        part: "previous",
        measurementKey: "timber:1",
        measurementTypeId: 0,
        volume: 5,
        itemKey: "a",
        itemName: "A",
        logVolume: 2,
      }),
      row({
        part: "previous",
        measurementKey: "timber:1",
        measurementTypeId: 0,
        volume: 5,
        itemKey: "b",
        itemName: "B",
        logVolume: 2,
      }),
      row({ part: "previous", measurementKey: "timber:2", measurementTypeId: 3, volume: 1.25 }),
      row({
        part: "previous",
        measurementKey: "lumber:1",
        measurementTypeId: 0,
        volume: 0.8,
        formula: null,
        itemKey: "p",
        itemName: "P",
      }),
      // ...its incoming and outgoing are not stock.
      row({
        part: "previous",
        measurementKey: "timber:3",
        measurementTypeId: 1,
        volume: 10,
        itemKey: "a",
        itemName: "A",
      }),
      row({ measurementKey: "timber:4", measurementTypeId: 1, volume: 3, itemKey: "a", itemName: "A" }),
      row({ measurementKey: "timber:5", measurementTypeId: 0, volume: 7, itemKey: "a", itemName: "A" }),
    ]);
    expect(f.summary.opening_volume).toBeCloseTo(7.05, 10);
    expect(f.summary.incoming_volume).toBe(3);
    expect(f.summary.outgoing_volume).toBe(0);
    expect(f.summary.calculated_volume).toBeCloseTo(10.05, 10);
    expect(f.summary.inventoried_volume).toBe(7);
    expect(f.summary.real_total).toBe(7);
    expect(f.summary.diff_volume).toBeCloseTo(-3.05, 10);
    expect(f.summary.measurements_count).toBe(2);
    expect(f.items.map((i) => [i.name, i.inventory, i.calculated, i.diff])).toEqual([
      ["A", 7, 5.5, 1.5],
      ["B", 0, 2.5, -2.5],
      ["P", 0, 0.8, -0.8],
      [null, 0, 1.25, -1.25],
    ]);
  });

  it("splits a measurement's volume by its logs' volumes, so the items add up to the total", () => {
    const f = inventoryFigures([
      row({ measurementKey: "timber:1", measurementTypeId: 0, volume: 6, itemKey: "a", itemName: "A", logVolume: 0.5 }),
      row({ measurementKey: "timber:1", measurementTypeId: 0, volume: 6, itemKey: "b", itemName: "B", logVolume: 1.5 }),
    ]);
    expect(f.items.map((i) => i.inventory)).toEqual([1.5, 4.5]);
    expect(f.summary.measured_volume).toBe(6);
    expect(f.summary.diff_volume).toBe(6);
  });

  it("converts a formula's own unit to m³ (board feet, stere with the coefficient)", () => {
    expect(volumeToM3(1000, "doyle", null)).toBeCloseTo(2.359737, 5);
    expect(volumeToM3(2, null, null)).toBe(2);
    const f = inventoryFigures([
      row({ measurementKey: "timber:1", measurementTypeId: 2, volume: 1000, formula: "doyle" }),
    ]);
    expect(f.summary.outgoing_volume).toBeCloseTo(2.359737, 5);
    expect(f.summary.diff_volume).toBeCloseTo(2.359737, 5);
  });

  it("nothing counted: every figure is zero", () => {
    expect(inventoryFigures([]).summary).toMatchObject({ calculated_volume: 0, inventoried_volume: 0, diff_volume: 0 });
  });
});
