/**
 * The wood-yard summary of a storage: per month and per assortment, the log count, volume and
 * value of its live measurements (docs/decisions/026-exports-and-labels.md).
 *
 * Each measurement is first summarised as its detail screen does (summarizeMeasurement: culls,
 * explicit and range-matched assortments, values in whole cents per line); the summary adds
 * those lines up per month (the month the measurement was taken, in the reader's time zone) and
 * assortment. Volumes come in already converted to the reader's unit (measurements of one
 * storage may use formulas of different units); they are summed unrounded and rounded once when
 * shown. Values are the sum of the measurements' rounded lines, so a month's value equals the
 * sum of its measurements' values on their screens. Culled logs and unassigned logs (no
 * assortment, id null) are their own lines: culls carry no value.
 */
import type { Id } from "./summary";

export interface WoodYardMeasurementLines {
  /** "yyyy-MM" in the reader's time zone. */
  month: string;
  /** The measurement's accepted logs per assortment (volume in the reader's unit). */
  byAssortment: ReadonlyArray<{ assortmentId: Id | null; count: number; volume: number; valueCents: number }>;
  /** Its culled logs (all culls together; volume in the reader's unit). */
  culled: { count: number; volume: number };
}

export interface WoodYardSummaryRow {
  month: string;
  /** An assortment, null for accepted logs without one; `culled` rows gather the culled logs. */
  assortmentId: Id | null;
  culled: boolean;
  count: number;
  volume: number;
  valueCents: number;
}

/**
 * Adds up the measurements' lines per month and assortment. Rows come by month, then in the
 * order of `assortmentOrder` (ids; others after it, by id), the unassigned line and the culled
 * line last; empty lines are left out.
 */
export function woodYardSummary(
  measurements: Iterable<WoodYardMeasurementLines>,
  assortmentOrder: readonly Id[] = [],
): WoodYardSummaryRow[] {
  const rows = new Map<string, WoodYardSummaryRow>();
  const line = (month: string, assortmentId: Id | null, culled: boolean) => {
    const key = `${month}|${culled ? "c" : "a"}|${assortmentId ?? ""}`;
    let row = rows.get(key);
    if (!row) {
      row = { month, assortmentId, culled, count: 0, volume: 0, valueCents: 0 };
      rows.set(key, row);
    }
    return row;
  };
  for (const m of measurements) {
    for (const a of m.byAssortment) {
      const row = line(m.month, a.assortmentId, false);
      row.count += a.count;
      row.volume += a.volume;
      row.valueCents += a.valueCents;
    }
    if (m.culled.count > 0) {
      const row = line(m.month, null, true);
      row.count += m.culled.count;
      row.volume += m.culled.volume;
    }
  }
  const position = new Map(assortmentOrder.map((id, i) => [String(id), i]));
  const rank = (r: WoodYardSummaryRow) =>
    r.culled ? 3e9 : r.assortmentId === null ? 2e9 : (position.get(String(r.assortmentId)) ?? 1e9);
  return [...rows.values()]
    .filter((r) => r.count > 0)
    .sort(
      (x, y) =>
        x.month.localeCompare(y.month) ||
        (rank(x) === rank(y)
          ? String(x.assortmentId).localeCompare(String(y.assortmentId), undefined, { numeric: true })
          : rank(x) < rank(y)
            ? -1
            : 1),
    );
}

/** Totals of summary rows (a month's, or all of them). */
export function woodYardTotals(rows: readonly WoodYardSummaryRow[]) {
  return rows.reduce(
    (t, r) => ({ count: t.count + r.count, volume: t.volume + r.volume, valueCents: t.valueCents + r.valueCents }),
    { count: 0, volume: 0, valueCents: 0 },
  );
}
