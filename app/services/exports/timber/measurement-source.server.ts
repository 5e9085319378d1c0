import { z } from "zod";
import {
  countSelected,
  measurementPresence,
  selectionFromParams,
  storageBelongs,
  type Selection,
} from "~/models/export-rows.server";
import { searchableCustomFieldKeys } from "~/models/timber-dashboard.server";
import type { DetailPart } from "~/utils/export-detail";
import { dashboardFilterFromBody, ExportIdSchema, IdListSchema, PDF_MAX_MEASUREMENTS } from "~/utils/schemas/export";
import type { RowSource } from "../types";

// The rows of the timber report types: timber measurements chosen by ids, by one storage, or by
// the timber dashboard's filters (GET /dashboard_filter's parameter names). The selection
// schemas below are the three ways the timber types take them.

type Issue = { path: string[]; message: string };

function dashboardFilterIssues(body: Record<string, unknown>): Issue[] {
  const filter = dashboardFilterFromBody(body);
  return filter.success ? [] : filter.error.issues.map((i) => ({ path: i.path.map(String), message: i.message }));
}

function filtersOf(body: Record<string, unknown>): Selection {
  const filter = dashboardFilterFromBody(body);
  return { filters: filter.success ? filter.data : {} };
}

/** dashboard_excel: the dashboard's filters, measurement_ids among them. */
export const DashboardSelectionSchema = z
  .looseObject({ measurement_ids: IdListSchema.optional() })
  .superRefine((body, ctx) => {
    if (body.measurement_ids && body.measurement_ids.length === 0)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    for (const issue of dashboardFilterIssues(body)) ctx.addIssue({ code: "custom", ...issue });
  })
  .transform((body): Selection => filtersOf(body));

/** The log-by-log types: one of measurement_ids, measurement_id or storage_id; with none, the dashboard's filters. */
export const IdsOrFiltersSelectionSchema = z
  .looseObject({
    measurement_ids: IdListSchema.optional(),
    measurement_id: ExportIdSchema.optional(),
    storage_id: ExportIdSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.measurement_ids && body.measurement_ids.length === 0)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    const given = [body.measurement_ids, body.measurement_id, body.storage_id].filter((v) => v !== undefined).length;
    if (given === 0) for (const issue of dashboardFilterIssues(body)) ctx.addIssue({ code: "custom", ...issue });
    if (given > 1) ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.oneSelection" });
  })
  .transform((body): Selection => {
    if (body.measurement_ids) return { measurement_ids: body.measurement_ids };
    if (body.measurement_id !== undefined) return { measurement_ids: [body.measurement_id] };
    if (body.storage_id !== undefined) return { storage_id: body.storage_id };
    return filtersOf(body);
  });

/** A PDF of measurements: measurement_ids (at most a print page's worth), or the one of the path. */
export const PrintSelectionSchema = z
  .looseObject({
    measurement_ids: IdListSchema.refine((ids) => ids.length > 0, "exports:errors.emptySelection")
      .refine((ids) => ids.length <= PDF_MAX_MEASUREMENTS, "exports:errors.tooManyForPdf")
      .optional(),
    measurement_id: ExportIdSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.measurement_ids === undefined && body.measurement_id === undefined)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.emptySelection" });
    if (body.measurement_ids !== undefined && body.measurement_id !== undefined)
      ctx.addIssue({ code: "custom", path: ["measurement_ids"], message: "exports:errors.oneSelection" });
  })
  .transform((body): Selection => ({ measurement_ids: body.measurement_ids ?? [body.measurement_id!] }));

/** What is left of the ids asked for (deleted measurements), as "#1, #2". */
function missingIds(requested: number[], found: number[]) {
  const have = new Set(found);
  return requested.filter((id) => !have.has(id)).map((id) => `#${id}`);
}

/**
 * Timber measurements as a row source. `rows` says what the type writes one row per (a
 * measurement or a log); a type that prints photos says so and gets the measurements without
 * a photo named in the status detail.
 */
export function timberMeasurementSource(opts: {
  rows: "measurements" | "logs";
  photos?: boolean;
}): RowSource<Selection> {
  return {
    async request(db, ctx, selection) {
      // A storage of another organisation is not found, like every other record of it.
      if (selection.storage_id !== undefined && !(await storageBelongs(db, ctx, selection.storage_id)))
        return "not_found";
      const stored = selection.filters
        ? { ...selection, customFieldKeys: [...(await searchableCustomFieldKeys(db, ctx))] }
        : selection;
      const count = await countSelected(db, ctx, stored);
      return { selection: stored, count: count.measurements };
    },

    revive: selectionFromParams,

    async prepare(db, organizationId, selection) {
      const leftOut: DetailPart[] = [];
      const requested = selection.measurement_ids;
      if (requested) {
        const found = await measurementPresence(db, { organizationId }, requested);
        const missing = missingIds(
          requested,
          found.map((m) => m.id),
        );
        if (found.length === 0) return { records: 0, expectedRows: 0, leftOut };
        if (missing.length) leftOut.push({ key: "exports:detail.missing", params: { ids: missing.join(", ") } });
        if (opts.photos) {
          const noPhoto = found.filter((m) => !m.photo_key).map((m) => `#${m.id}`);
          if (noPhoto.length) leftOut.push({ key: "exports:detail.noPhoto", params: { ids: noPhoto.join(", ") } });
          return { records: found.length, expectedRows: found.length, leftOut };
        }
      }
      const count = await countSelected(db, { organizationId }, selection);
      return {
        records: count.measurements,
        expectedRows: opts.rows === "logs" ? count.logs : count.measurements,
        leftOut,
      };
    },
  };
}

/** The timber types' name suffix: the measurement's number when there is one. */
export const oneMeasurementSuffix = (selection: Selection) =>
  selection.measurement_ids?.length === 1 ? `#${selection.measurement_ids[0]}` : undefined;
