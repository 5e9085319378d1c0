/**
 * Inventory figures (docs/decisions/014-inventories.md): what a stock-take of one storage found,
 * against what the books say should be there. One function, fed by one query
 * (models/inventory.server.ts), for the inventories page, the API and inventories_excel.
 *
 * For one storage, over its live timber and lumber measurements:
 * - incoming = volume of the counted measurements of type Incoming (1), outgoing = Outgoing (2);
 * - measured (real) = volume of the counted stock-take measurements, Stock (0) and Control (3);
 * - opening = the previous confirmed inventory's inventoried volume (0 without one);
 * - calculated = opening + incoming - outgoing; inventoried = measured; diff = inventoried - calculated.
 * Per item the same, by assortment: a measurement's logs go to their own assortment (a log without
 * one to the measurement's), sharing the measurement's volume in proportion to the logs' volumes,
 * so the items add up to the summary; a measurement without logs goes whole to its assortment;
 * lumber goes to its product. Volumes come in the formula's unit and leave in m³.
 */
import { LOG_FORMULAS, type LogFormula } from "./log-volume";
import { convertVolume, type AnyVolumeUnit } from "./units";

export const MEASUREMENT_TYPE = { stock: 0, incoming: 1, outgoing: 2, control: 3 } as const;

/** One measurement's share for one item (the query's grain: measurement x item). */
export interface InventoryRow {
  /** "counted": held by (or, open, to be held by) this inventory; "previous": by the one before. */
  part: "counted" | "previous";
  /** Unique across kinds, e.g. "timber:12". */
  measurementKey: string;
  measurementTypeId: number;
  /** The measurement's whole volume, in its formula's unit. */
  volume: number;
  /** Null for m³ (lumber). */
  formula: string | null;
  coefficient: number | null;
  /** The item: "assortment:4", "product:2", or null for unsorted. */
  itemKey: string | null;
  itemName: string | null;
  /** Sum of the volumes of the measurement's live logs in this item; null without logs. */
  logVolume: number | null;
}

export interface InventorySummary {
  incoming_volume: number;
  outgoing_volume: number;
  /** Stock-take measurements (types 0 and 3). */
  measured_volume: number;
  /** The spec's "real" total: the same as measured_volume here. */
  real_total: number;
  /** The previous confirmed inventory's inventoried volume. */
  opening_volume: number;
  calculated_volume: number;
  inventoried_volume: number;
  diff_volume: number;
  measurements_count: number;
}

export interface InventoryItem {
  /** null: unsorted. */
  key: string | null;
  name: string | null;
  inventory: number;
  calculated: number;
  diff: number;
  incoming: number;
  outgoing: number;
  opening: number;
}

export interface InventoryFigures {
  summary: InventorySummary;
  items: InventoryItem[];
}

/** A measurement's volume in m³ (stere through the measurement's stacking coefficient). */
export function volumeToM3(volume: number, formula: string | null, coefficient: number | null): number {
  const from: AnyVolumeUnit = (formula && LOG_FORMULAS[formula as LogFormula]?.unit) || "m^3";
  const factor = coefficient && coefficient > 0 && coefficient <= 1 ? coefficient : 1;
  return convertVolume(volume, from, "m^3", { stereSolidFactor: factor });
}

type Acc = { name: string | null; opening: number; incoming: number; outgoing: number; measured: number };

export function inventoryFigures(rows: readonly InventoryRow[]): InventoryFigures {
  // The logs' total per measurement, to split its volume across items.
  const logTotals = new Map<string, number>();
  for (const r of rows) {
    if (r.logVolume !== null) logTotals.set(r.measurementKey, (logTotals.get(r.measurementKey) ?? 0) + r.logVolume);
  }
  const items = new Map<string | null, Acc>();
  const counted = new Set<string>();
  const s = { opening: 0, incoming: 0, outgoing: 0, measured: 0 };
  for (const r of rows) {
    const whole = volumeToM3(r.volume, r.formula, r.coefficient);
    const total = logTotals.get(r.measurementKey);
    // Without logs (or logs of no volume) the one row of the measurement takes it whole.
    const share = total && total > 0 && r.logVolume !== null ? (whole * r.logVolume) / total : whole;
    let item = items.get(r.itemKey);
    if (!item) items.set(r.itemKey, (item = { name: r.itemName, opening: 0, incoming: 0, outgoing: 0, measured: 0 }));
    const stockTake =
      r.measurementTypeId === MEASUREMENT_TYPE.stock || r.measurementTypeId === MEASUREMENT_TYPE.control;
    if (r.part === "previous") {
      if (stockTake) {
        item.opening += share;
        s.opening += share;
      }
      continue;
    }
    counted.add(r.measurementKey);
    if (stockTake) {
      item.measured += share;
      s.measured += share;
    } else if (r.measurementTypeId === MEASUREMENT_TYPE.incoming) {
      item.incoming += share;
      s.incoming += share;
    } else if (r.measurementTypeId === MEASUREMENT_TYPE.outgoing) {
      item.outgoing += share;
      s.outgoing += share;
    }
  }
  const calculated = s.opening + s.incoming - s.outgoing;
  return {
    summary: {
      incoming_volume: s.incoming,
      outgoing_volume: s.outgoing,
      measured_volume: s.measured,
      real_total: s.measured,
      opening_volume: s.opening,
      calculated_volume: calculated,
      inventoried_volume: s.measured,
      diff_volume: s.measured - calculated,
      measurements_count: counted.size,
    },
    items: [...items.entries()]
      .map(([key, a]) => {
        const calc = a.opening + a.incoming - a.outgoing;
        return {
          key,
          name: a.name,
          inventory: a.measured,
          calculated: calc,
          diff: a.measured - calc,
          incoming: a.incoming,
          outgoing: a.outgoing,
          opening: a.opening,
        };
      })
      // By name; unsorted last.
      .sort((a, b) =>
        a.key === null
          ? 1
          : b.key === null
            ? -1
            : (a.name ?? "").localeCompare(b.name ?? "") || a.key.localeCompare(b.key),
      ),
  };
}
