/**
 * The invoice of a bill of lading (bill_of_lading_invoice_excel, docs/decisions/026-exports-and-labels.md):
 * the bill's JAS volume by assortment, each line priced from its assortment.
 *
 * - A container measurement's logs count under the measurement's own assortment when it has one,
 *   else under the bill's assortment (`bill_of_ladings.wood_characteristic_id`, "the assortment
 *   the bill is sold as"); a measurement with neither is a line without assortment and without
 *   price.
 * - Volumes are JAS m³, each log already rounded as a tally sheet adds them (app/domain/container.ts);
 *   a line's volume is the sum of its logs' volumes, rounded to 7 decimals (finer than any JAS
 *   per-log volume, so only float noise goes) so lines and totals carry no drift.
 * - Value as every price of the product (`assortmentValueCents`, app/domain/summary.ts): a price
 *   per log (when set and > 0) × the log count, else the price per the assortment's volume unit ×
 *   the volume converted to that unit; rounded half up to whole cents once per line. The total is
 *   the sum of the rounded lines, so the lines always add up to it.
 */
import { roundHalfUp } from "./numeric";
import { assortmentValueCents, type Id } from "./summary";
import { convertVolume, type VolumeUnit } from "./units";

/** The part of a bill's measurements that falls to one assortment (or to none). */
export interface InvoiceVolume {
  /** The measurement's own assortment, null when it has none. */
  assortmentId: Id | null;
  logCount: number;
  volumeM3: number;
}

export interface InvoiceAssortment {
  id: Id;
  name: string;
  priceCents: number | null;
  pricePerLogCents: number | null;
  volumeUnit: VolumeUnit | null;
}

export interface InvoiceLine {
  /** null: logs without an assortment (no price, no value). */
  assortmentId: Id | null;
  name: string | null;
  logCount: number;
  volumeM3: number;
  /** What the unit price is per: one log, or one of the assortment's volume units; null without a price. */
  priceBasis: "log" | VolumeUnit | null;
  /** The unit price in cents (per log, or per priceBasis volume unit); null without a price. */
  unitPriceCents: number | null;
  /** The volume in the price's unit (the basis of the value when priced by volume). */
  pricedQuantity: number | null;
  valueCents: number;
}

export interface BillInvoice {
  lines: InvoiceLine[];
  logCount: number;
  volumeM3: number;
  totalCents: number;
}

/** Sum of JAS volumes without float noise (7 decimals: finer than any per-log JAS volume). */
export function sumJasVolumes(values: Iterable<number>): number {
  let sum = 0;
  for (const v of values) sum += v;
  return roundHalfUp(sum, 7);
}

/**
 * The invoice lines of a bill: volumes grouped by assortment (the measurement's, else the bill's),
 * lines in the order of `assortments` (the master data's), the line without assortment last.
 * An assortment id not in `assortments` (deleted, or another organisation's) counts as none.
 */
export function billOfLadingInvoice(
  volumes: readonly InvoiceVolume[],
  assortments: readonly InvoiceAssortment[],
  billAssortmentId: Id | null,
): BillInvoice {
  const known = new Map(assortments.map((a) => [String(a.id), a]));
  const groups = new Map<string, { logCount: number; volumes: number[] }>();
  for (const v of volumes) {
    const id = v.assortmentId ?? billAssortmentId;
    const key = id !== null && known.has(String(id)) ? String(id) : "";
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { logCount: 0, volumes: [] }));
    g.logCount += v.logCount;
    g.volumes.push(v.volumeM3);
  }
  const lines: InvoiceLine[] = [];
  for (const a of assortments) {
    const g = groups.get(String(a.id));
    if (!g) continue;
    const volumeM3 = sumJasVolumes(g.volumes);
    const perLog = a.pricePerLogCents !== null && a.pricePerLogCents > 0;
    const perVolume = !perLog && a.priceCents !== null;
    const unit = a.volumeUnit ?? "m^3";
    lines.push({
      assortmentId: a.id,
      name: a.name,
      logCount: g.logCount,
      volumeM3,
      priceBasis: perLog ? "log" : perVolume ? unit : null,
      unitPriceCents: perLog ? a.pricePerLogCents : perVolume ? a.priceCents : null,
      pricedQuantity: perLog ? g.logCount : perVolume ? convertVolume(volumeM3, "m^3", unit) : null,
      valueCents: assortmentValueCents(
        { id: a.id, priceCents: a.priceCents, pricePerLogCents: a.pricePerLogCents, volumeUnit: a.volumeUnit },
        g.logCount,
        volumeM3,
        "m^3",
      ),
    });
  }
  const none = groups.get("");
  if (none)
    lines.push({
      assortmentId: null,
      name: null,
      logCount: none.logCount,
      volumeM3: sumJasVolumes(none.volumes),
      priceBasis: null,
      unitPriceCents: null,
      pricedQuantity: null,
      valueCents: 0,
    });
  return {
    lines,
    logCount: lines.reduce((s, l) => s + l.logCount, 0),
    volumeM3: sumJasVolumes(lines.map((l) => l.volumeM3)),
    totalCents: lines.reduce((s, l) => s + l.valueCents, 0),
  };
}
