/**
 * Report tallies (docs/decisions/021-reports.md): a delivery's logs counted for the buyer in the
 * report's own formula and unit, whatever formula each measurement was measured with. One
 * accumulator, fed log by log by the generation job (models/report.server.ts) and read by the
 * report's page, its API and reports_excel from what the job stored.
 *
 * Rules (the spec is silent; chosen here, the same as app/domain/summary.ts where it has one):
 * - Deleted logs are ignored. Every other log's volume is recomputed with the report's formula
 *   from its diameter (cm, top) and its measurement's log length (m); the stored `v` is not used,
 *   so two measurements measured with different formulas are tallied alike. A measurement without
 *   a log length gives its logs no volume (0), they still count.
 * - Volume in the report's unit: the formula's native unit (m³, FBM, hoppus m³) to m³, then to the
 *   unit; a stere takes the measurement's stacking coefficient (1 without one).
 * - Diameter: the log's diameter with the fraction dropped (whole cm), the usual tally convention.
 * - Assortment (characteristic): the log's own, else its measurement's; a culled log (cull_id) is
 *   counted under its cull, with no assortment and no value.
 * - Value: per-log price (when set and > 0) x count, else the price per the assortment's volume
 *   unit x the volume converted to that unit (from m³, so a stere report prices solid wood). Each
 *   assortment's value is rounded half up to whole cents once; the total is the sum of the lines.
 */
import { diameterClassFrom } from "./diameter-classes";
import { jasScalingDiameterCm } from "./jas";
import { LOG_FORMULAS, logVolume, type LogFormula, type LogInput, type Species } from "./log-volume";
import { assortmentValueCents } from "./summary";
import { convertVolume, isVolumeUnit, type VolumeUnit } from "./units";

export interface ReportLog {
  /** Top diameter, cm. */
  d: number;
  isDeleted?: boolean;
  cullId: number | null;
  assortmentId: number | null;
}

export interface ReportMeasurementContext {
  /** The measurement's log length, m (null: its logs have no volume). */
  logLengthM: number | null;
  /** The measurement's assortment, for logs without their own. */
  assortmentId: number | null;
  /** Stacking coefficient (solid share), used only for a stere report. */
  coefficient?: number | null;
  species?: Species;
}

export interface ReportAssortment {
  id: number;
  name: string;
  priceCents: number | null;
  pricePerLogCents: number | null;
  volumeUnit: VolumeUnit;
}

export interface ReportCull {
  id: number;
  name: string;
}

export interface ReportTallyLine {
  diameter: number;
  log_count: number;
  volume: number;
  characteristic_id: number | null;
  cull_id: number | null;
}

export interface ReportCharacteristicLine {
  id: number;
  name: string;
  /** Money per price unit (cents / 100), null without a volume price. */
  price: number | null;
  price_per_log: number | null;
  price_unit: VolumeUnit;
  log_count: number;
  volume: number;
  /**
   * The solid volume the value was priced on, in `price_unit` (absent in tallies stored before
   * it was kept).
   */
  priced_quantity?: number;
  /** Money (cents / 100). */
  value: number;
}

export interface ReportCullLine {
  id: number;
  name: string;
  log_count: number;
  volume: number;
}

export interface ReportTallies {
  logs: ReportTallyLine[];
  characteristics: ReportCharacteristicLine[];
  culls: ReportCullLine[];
  totals: { log_count: number; volume: number; cull_log_count: number; cull_volume: number; value: number };
  measurements_count: number;
}

export interface ReportTallyOptions {
  formula: LogFormula;
  unit: VolumeUnit;
  assortments: readonly ReportAssortment[];
  culls: readonly ReportCull[];
}

/** The formulas a report can be in: those computed from a log's top diameter and length. */
export const REPORT_FORMULAS = (Object.keys(LOG_FORMULAS) as LogFormula[]).filter((k) =>
  LOG_FORMULAS[k].inputs.every((i) => i === "topDiameterCm" || i === "lengthM" || i === "species"),
);

/** Nilson without a known species (the measurement's wood type is not one of the built-in ones). */
const DEFAULT_SPECIES: Species = "conifer";

interface Line {
  diameter: number;
  characteristicId: number | null;
  cullId: number | null;
  count: number;
  volume: number;
}

/** One log as a report counts it (createReportLogMeter). */
export interface MeteredReportLog {
  /** The report's diameter class: whole cm, fraction dropped. */
  diameter: number;
  /** The formula's scaling diameter: JAS's (whole cm below 14, even cm from 14), else the class. */
  scaleDiameter: number;
  /** Solid volume, m³ (what prices are applied to). */
  m3: number;
  /** Volume in the report's unit. */
  volume: number;
  characteristicId: number | null;
  cullId: number | null;
}

/**
 * The report's rule for one log, shared by the tally and every report export that lists logs
 * (tally sheet, log-by-log), so that their sums are the report's. Null for a deleted log.
 */
export function createReportLogMeter(formula: LogFormula, unit: VolumeUnit) {
  const nativeUnit = LOG_FORMULAS[formula].unit;
  const input: LogInput = { topDiameterCm: 0, lengthM: 0 };
  return (m: ReportMeasurementContext, log: ReportLog): MeteredReportLog | null => {
    if (log.isDeleted) return null;
    const length = m.logLengthM ?? 0;
    input.lengthM = length;
    input.species = formula === "estonian_nilson" ? (m.species ?? DEFAULT_SPECIES) : m.species;
    const factor = m.coefficient && m.coefficient > 0 && m.coefficient <= 1 ? m.coefficient : 1;
    let m3 = 0;
    if (length > 0) {
      input.topDiameterCm = log.d;
      const native = logVolume(formula, input).value;
      m3 = nativeUnit === "m^3" ? native : convertVolume(native, nativeUnit, "m^3");
    }
    const volume = unit === "m^3" ? m3 : convertVolume(m3, "m^3", unit, { stereSolidFactor: factor });
    const diameter = diameterClassFrom(log.d, 1);
    const cullId = log.cullId;
    return {
      diameter,
      scaleDiameter: formula === "jas" ? jasScalingDiameterCm(log.d) : diameter,
      m3,
      volume,
      characteristicId: cullId === null ? (log.assortmentId ?? m.assortmentId) : null,
      cullId,
    };
  };
}

export function createReportTally(options: ReportTallyOptions) {
  const meter = createReportLogMeter(options.formula, options.unit);
  const lines = new Map<string, Line>();
  const byAssortment = new Map<number | null, { count: number; volume: number; m3: number }>();
  const byCull = new Map<number, { count: number; volume: number }>();
  let measurements = 0;

  return {
    /** One measurement's logs (call once per measurement). */
    addMeasurement(m: ReportMeasurementContext, logs: Iterable<ReportLog>) {
      measurements += 1;
      for (const log of logs) {
        const metered = meter(m, log);
        if (!metered) continue;
        const { diameter, cullId, characteristicId, volume, m3 } = metered;
        const key = `${diameter}|${characteristicId}|${cullId}`;
        let line = lines.get(key);
        if (!line) lines.set(key, (line = { diameter, characteristicId, cullId, count: 0, volume: 0 }));
        line.count += 1;
        line.volume += volume;
        if (cullId !== null) {
          let c = byCull.get(cullId);
          if (!c) byCull.set(cullId, (c = { count: 0, volume: 0 }));
          c.count += 1;
          c.volume += volume;
        } else {
          let a = byAssortment.get(characteristicId);
          if (!a) byAssortment.set(characteristicId, (a = { count: 0, volume: 0, m3: 0 }));
          a.count += 1;
          a.volume += volume;
          a.m3 += m3;
        }
      }
    },

    finish(): ReportTallies {
      const assortments = new Map(options.assortments.map((a) => [a.id, a]));
      const cullNames = new Map(options.culls.map((c) => [c.id, c.name]));
      const logs = [...lines.values()]
        .sort(
          (a, b) =>
            a.diameter - b.diameter ||
            (a.characteristicId ?? -1) - (b.characteristicId ?? -1) ||
            (a.cullId ?? -1) - (b.cullId ?? -1),
        )
        .map((l) => ({
          diameter: l.diameter,
          log_count: l.count,
          volume: l.volume,
          characteristic_id: l.characteristicId,
          cull_id: l.cullId,
        }));
      const characteristics: ReportCharacteristicLine[] = [];
      let value = 0;
      let logCount = 0;
      let volume = 0;
      for (const [id, t] of [...byAssortment.entries()].sort((a, b) => (a[0] ?? -1) - (b[0] ?? -1))) {
        logCount += t.count;
        volume += t.volume;
        if (id === null) continue;
        const a = assortments.get(id);
        // The same pricing as a measurement's summary, on the solid m³.
        const cents = a ? assortmentValueCents(a, t.count, t.m3, "m^3") : 0;
        value += cents;
        characteristics.push({
          id,
          name: a?.name ?? `#${id}`,
          price: a?.priceCents != null ? a.priceCents / 100 : null,
          price_per_log: a?.pricePerLogCents ? a.pricePerLogCents / 100 : null,
          price_unit: a?.volumeUnit ?? "m^3",
          log_count: t.count,
          volume: t.volume,
          priced_quantity: a && a.volumeUnit !== "m^3" ? convertVolume(t.m3, "m^3", a.volumeUnit) : t.m3,
          value: cents / 100,
        });
      }
      const culls: ReportCullLine[] = [...byCull.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([id, c]) => ({ id, name: cullNames.get(id) ?? `#${id}`, log_count: c.count, volume: c.volume }));
      const cullCount = culls.reduce((s, c) => s + c.log_count, 0);
      const cullVolume = culls.reduce((s, c) => s + c.volume, 0);
      return {
        logs,
        characteristics,
        culls,
        totals: {
          log_count: logCount + cullCount,
          volume: volume + cullVolume,
          cull_log_count: cullCount,
          cull_volume: cullVolume,
          value: value / 100,
        },
        measurements_count: measurements,
      };
    },
  };
}

/**
 * The add rule (spec: "Adding measurements to a report"): a measurement without an assortment
 * that has a live log with neither an assortment nor a cull cannot be tallied, and stops the
 * whole action.
 */
export function lacksAssortment(
  m: { assortmentId: number | null },
  logs: Iterable<{ assortmentId: number | null; cullId: number | null; isDeleted?: boolean }>,
): boolean {
  if (m.assortmentId !== null) return false;
  for (const l of logs) if (!l.isDeleted && l.assortmentId === null && l.cullId === null) return true;
  return false;
}

/**
 * igl_excel's layout (docs/decisions/026): a per-assortment delivery sheet. One block per priced
 * assortment (the report's order), then the logs without assortment, then each cull; each block
 * lists its diameter classes (count, volume) and ends with its subtotal and value. The blocks
 * add up to the report's totals: they only regroup the stored tally lines.
 */
export interface DeliveryBlock {
  kind: "assortment" | "unsorted" | "cull";
  id: number | null;
  name: string | null;
  lines: { diameter: number; log_count: number; volume: number }[];
  log_count: number;
  volume: number;
  /** Money (cents / 100); null for unsorted and culled logs (no value). */
  value: number | null;
}

/** Tallies as stored in a report's `details` (units are plain strings there). */
export type StoredReportTallies = Omit<ReportTallies, "characteristics"> & {
  characteristics: (Omit<ReportCharacteristicLine, "price_unit"> & { price_unit: string })[];
};

export function reportDeliveryBlocks(details: StoredReportTallies): DeliveryBlock[] {
  const block = (
    kind: DeliveryBlock["kind"],
    id: number | null,
    name: string | null,
    value: number | null,
    pick: (l: ReportTallyLine) => boolean,
  ): DeliveryBlock => {
    const byDiameter = new Map<number, { diameter: number; log_count: number; volume: number }>();
    for (const l of details.logs) {
      if (!pick(l)) continue;
      let line = byDiameter.get(l.diameter);
      if (!line) byDiameter.set(l.diameter, (line = { diameter: l.diameter, log_count: 0, volume: 0 }));
      line.log_count += l.log_count;
      line.volume += l.volume;
    }
    const lines = [...byDiameter.values()].sort((a, b) => a.diameter - b.diameter);
    return {
      kind,
      id,
      name,
      lines,
      log_count: lines.reduce((s, l) => s + l.log_count, 0),
      volume: lines.reduce((s, l) => s + l.volume, 0),
      value,
    };
  };
  const blocks = details.characteristics.map((c) =>
    block("assortment", c.id, c.name, c.value, (l) => l.cull_id === null && l.characteristic_id === c.id),
  );
  const unsorted = block("unsorted", null, null, null, (l) => l.cull_id === null && l.characteristic_id === null);
  if (unsorted.log_count > 0) blocks.push(unsorted);
  for (const c of details.culls) blocks.push(block("cull", c.id, c.name, null, (l) => l.cull_id === c.id));
  return blocks;
}

/**
 * The invoice's lines (report_invoice_excel): one per assortment of the report, priced as the
 * report prices it. Quantity and unit price are what the value was computed from: logs × price
 * per log, or the solid volume in the assortment's price unit × the price per that unit. Amounts
 * are the report's values (rounded to cents once per line), the net total their sum, which is the
 * report's total value. Unsorted and culled logs carry no value and are not invoiced.
 */
export interface ReportInvoiceLine {
  id: number;
  name: string;
  log_count: number;
  basis: "log" | "volume" | "none";
  quantity: number;
  /** "log" for a price per log, else a volume unit. */
  quantity_unit: VolumeUnit | "log";
  unit_price: number | null;
  amount: number;
}

export function reportInvoiceLines(
  details: StoredReportTallies,
  reportUnit: VolumeUnit,
): { lines: ReportInvoiceLine[]; net: number } {
  const lines = details.characteristics.map((c): ReportInvoiceLine => {
    const priceUnit: VolumeUnit = isVolumeUnit(c.price_unit) ? c.price_unit : "m^3";
    if (c.price_per_log !== null)
      return {
        id: c.id,
        name: c.name,
        log_count: c.log_count,
        basis: "log",
        quantity: c.log_count,
        quantity_unit: "log",
        unit_price: c.price_per_log,
        amount: c.value,
      };
    // Older tallies kept no priced quantity: the report's volume converted, unless it is stacked.
    const quantity =
      c.priced_quantity ??
      (reportUnit === priceUnit || reportUnit === "stere" ? c.volume : convertVolume(c.volume, reportUnit, priceUnit));
    const unit = c.priced_quantity === undefined && reportUnit === "stere" ? reportUnit : priceUnit;
    return {
      id: c.id,
      name: c.name,
      log_count: c.log_count,
      basis: c.price !== null ? "volume" : "none",
      quantity,
      quantity_unit: unit,
      unit_price: c.price,
      amount: c.value,
    };
  });
  // Summed in cents, as the report's total is.
  const net = lines.reduce((s, l) => s + Math.round(l.amount * 100), 0) / 100;
  return { lines, net };
}
