/**
 * A pulp mill's shipments (docs/decisions/023-shipments.md): the truck-diameter measurement's
 * figures from its log ends, a shipment's incoming and outgoing sides, and the dashboard's
 * pagination window. No I/O.
 */
import { computeMeasurementLogs, type PixelLog } from "./measurement-logs";
import { formulaVolumeToCubicMetres } from "./timber-measurement";
import type { LogFormula, Species } from "./log-volume";
import type { ReferenceLine } from "./reference-scale";

/** Measurement type ids (DOMAIN.md): 1 incoming (at the mill), 2 outgoing (from the supplier). */
export const INCOMING_TYPE_ID = 1;
export const OUTGOING_TYPE_ID = 2;

export interface TruckDiameterFigures<T> {
  logs: Array<T & { d: number; v: number }>;
  /** Solid m³ of the kept logs, whatever the formula's native unit. */
  volumeM3: number;
  logsCount: number;
}

/**
 * A truck-diameter measurement: each kept log end's diameter from the reference scale and its
 * volume by the formula and the log length; the total is the sum. Without a reference nothing
 * can be scaled: the logs are counted and every size is 0.
 */
export function truckDiameterFigures<T extends PixelLog>(
  logs: readonly T[],
  input: { references: readonly ReferenceLine[]; formula: string; logLengthM: number; species?: Species },
): TruckDiameterFigures<T> {
  if (input.references.length === 0) {
    return {
      logs: logs.map((l) => ({ ...l, d: 0, v: 0 })),
      volumeM3: 0,
      logsCount: logs.filter((l) => !l.isDeleted).length,
    };
  }
  const r = computeMeasurementLogs(logs, {
    references: input.references,
    formula: input.formula as LogFormula,
    lengthM: input.logLengthM,
    species: input.species,
  });
  return {
    logs: r.logs,
    volumeM3: formulaVolumeToCubicMetres(r.volume, input.formula),
    logsCount: r.logsCount,
  };
}

export interface ShipmentSide {
  /** Truck and truck-diameter measurements of the side. */
  measurements: number;
  logsCount: number;
  /** m³ */
  volume: number;
}

export interface ShipmentSides {
  incoming: ShipmentSide;
  outgoing: ShipmentSide;
}

/**
 * A shipment's incoming and outgoing sides, by the measurements' type (1 incoming, 2 outgoing;
 * the others count in neither). The log count is the truck-diameter measurements' (a truck
 * measurement measures loads, not logs). The volume is the truck measurements' load volume when
 * the side has a truck measurement, else its truck-diameter measurements' volume: both measure
 * the same wood, so adding them would count it twice.
 */
export function shipmentSides(
  truck: ReadonlyArray<{ typeId: number; count?: number; volume: number }>,
  diameter: ReadonlyArray<{ typeId: number; count?: number; logsCount: number; volume: number }>,
): ShipmentSides {
  const side = (typeId: number): ShipmentSide => {
    const t = truck.filter((m) => m.typeId === typeId);
    const d = diameter.filter((m) => m.typeId === typeId);
    const n = (rows: ReadonlyArray<{ count?: number }>) => rows.reduce((s, m) => s + (m.count ?? 1), 0);
    const sum = (rows: ReadonlyArray<{ volume: number }>) => rows.reduce((s, m) => s + m.volume, 0);
    return {
      measurements: n(t) + n(d),
      logsCount: d.reduce((s, m) => s + m.logsCount, 0),
      volume: n(t) > 0 ? sum(t) : sum(d),
    };
  };
  return { incoming: side(INCOMING_TYPE_ID), outgoing: side(OUTGOING_TYPE_ID) };
}

/**
 * The shipment's volume in the dashboard's total: what arrived at the mill (incoming) when it was
 * measured there, else what left the supplier (outgoing).
 */
export function shipmentVolume(sides: ShipmentSides): number {
  return sides.incoming.measurements > 0 ? sides.incoming.volume : sides.outgoing.volume;
}

export interface PaginationWindow {
  /** Up to `size` page numbers around the current one. */
  pages: number[];
  first: number | null;
  prev: number | null;
  next: number | null;
  last: number | null;
}

/**
 * The shipments pagination (the spec: a window of up to 3 page numbers plus first, previous,
 * next and last). The window keeps the current page in its middle where it can and is moved in
 * at the ends; first/previous are null on the first page, next/last on the last.
 */
export function paginationWindow(page: number, totalPages: number, size = 3): PaginationWindow {
  const total = Math.max(1, Math.floor(totalPages));
  const current = Math.min(Math.max(1, Math.floor(page)), total);
  const width = Math.min(size, total);
  const start = Math.min(Math.max(1, current - Math.floor((width - 1) / 2)), total - width + 1);
  return {
    pages: Array.from({ length: width }, (_, i) => start + i),
    first: current > 1 ? 1 : null,
    prev: current > 1 ? current - 1 : null,
    next: current < total ? current + 1 : null,
    last: current < total ? total : null,
  };
}
