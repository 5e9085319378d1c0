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
import { LOG_FORMULAS, logVolume, type LogFormula, type LogInput, type Species } from "./log-volume";
import { assortmentValueCents } from "./summary";
import { convertVolume, type VolumeUnit } from "./units";

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

export function createReportTally(options: ReportTallyOptions) {
  const nativeUnit = LOG_FORMULAS[options.formula].unit;
  const lines = new Map<string, Line>();
  const byAssortment = new Map<number | null, { count: number; volume: number; m3: number }>();
  const byCull = new Map<number, { count: number; volume: number }>();
  const input: LogInput = { topDiameterCm: 0, lengthM: 0 };
  let measurements = 0;

  return {
    /** One measurement's logs (call once per measurement). */
    addMeasurement(m: ReportMeasurementContext, logs: Iterable<ReportLog>) {
      measurements += 1;
      const length = m.logLengthM ?? 0;
      input.lengthM = length;
      input.species = options.formula === "estonian_nilson" ? (m.species ?? DEFAULT_SPECIES) : m.species;
      const factor = m.coefficient && m.coefficient > 0 && m.coefficient <= 1 ? m.coefficient : 1;
      for (const log of logs) {
        if (log.isDeleted) continue;
        let m3 = 0;
        if (length > 0) {
          input.topDiameterCm = log.d;
          const native = logVolume(options.formula, input).value;
          m3 = nativeUnit === "m^3" ? native : convertVolume(native, nativeUnit, "m^3");
        }
        const volume =
          options.unit === "m^3" ? m3 : convertVolume(m3, "m^3", options.unit, { stereSolidFactor: factor });
        const diameter = diameterClassFrom(log.d, 1);
        const cullId = log.cullId;
        const characteristicId = cullId === null ? (log.assortmentId ?? m.assortmentId) : null;
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
