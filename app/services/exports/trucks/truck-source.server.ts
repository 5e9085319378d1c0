import { z } from "zod";
import type { Selection } from "~/models/export-rows.server";
import {
  countTruckDiameterSelected,
  countTruckLoadsSelected,
  countTruckSelected,
  truckMeasurementPresence,
} from "~/models/truck-export.server";
import type { DetailPart } from "~/utils/export-detail";
import { TruckDashboardFilterSchema, type TruckDashboardFilter } from "~/utils/schemas/truck";
import type { RowSource } from "../types";

// The rows of the truck report types (docs/decisions/017-trucks.md, "Exports"): truck
// measurements under the truck dashboard's filters (truck_dashboard_excel, palmako_excel), or
// the truck measurements named by id (truck_measurement_pdf).

const FILTER_KEYS = ["license_plate", "truck_measurements_only", "truck_diameter_measurements_only"] as const;

/**
 * The truck dashboard's filters from the body: its query string's values as the dashboard's
 * button posts them ("true" for a checked box), or JSON booleans from API clients.
 */
export const TruckDashboardSelectionSchema = z
  .looseObject({})
  .transform((body) => {
    const out: Record<string, string> = {};
    for (const key of FILTER_KEYS) {
      const v = body[key];
      if (v === true) out[key] = "true";
      else if (typeof v === "string" && v !== "" && v !== "false") out[key] = v;
      else if (typeof v === "number") out[key] = String(v);
    }
    return out;
  })
  .pipe(TruckDashboardFilterSchema);

export function truckDashboardSource(rows: "measurements" | "loads"): RowSource<TruckDashboardFilter> {
  // The dashboard's Excel has a row per truck and per truck-diameter measurement; the per-load
  // deliveries sheet only truck measurements' loads.
  const count = async (
    db: Parameters<typeof countTruckSelected>[0],
    ctx: { organizationId: number },
    f: TruckDashboardFilter,
  ) =>
    (await countTruckSelected(db, ctx, f)) +
    (rows === "measurements" ? await countTruckDiameterSelected(db, ctx, f) : 0);
  return {
    async request(db, ctx, selection) {
      return { selection, count: await count(db, ctx, selection) };
    },
    revive: (params) => TruckDashboardFilterSchema.parse(params ?? {}),
    async prepare(db, organizationId, selection) {
      const org = { organizationId };
      const records = await count(db, org, selection);
      const expectedRows = rows === "loads" ? await countTruckLoadsSelected(db, org, selection) : records;
      return { records, expectedRows, leftOut: [] };
    },
  };
}

/** Truck measurements by id (the PDF): another organisation's or a deleted one is not found. */
export const truckMeasurementsSource: RowSource<Selection> = {
  async request(db, ctx, selection) {
    const ids = selection.measurement_ids ?? [];
    const found = await truckMeasurementPresence(db, ctx, ids);
    if (found.length < new Set(ids).size) return "not_found";
    return { selection, count: found.length };
  },
  revive: (params) => ({ measurement_ids: ((params ?? {}) as Selection).measurement_ids ?? [] }),
  async prepare(db, organizationId, selection) {
    const requested = selection.measurement_ids ?? [];
    const found = await truckMeasurementPresence(db, { organizationId }, requested);
    const leftOut: DetailPart[] = [];
    if (!found.length) return { records: 0, expectedRows: 0, leftOut };
    const have = new Set(found.map((m) => m.id));
    const missing = requested.filter((id) => !have.has(id)).map((id) => `#${id}`);
    if (missing.length) leftOut.push({ key: "exports:detail.missing", params: { ids: missing.join(", ") } });
    const noPhoto = found.filter((m) => !m.photo_key).map((m) => `#${m.id}`);
    if (noPhoto.length) leftOut.push({ key: "exports:detail.noPhoto", params: { ids: noPhoto.join(", ") } });
    return { records: found.length, expectedRows: found.length, leftOut };
  },
};
