import { z } from "zod";
import { countReportLogs, readReportFor } from "~/models/report.server";
import { isOrganizationAdmin, listRolesInOrganization } from "~/models/role.server";
import { forbidden } from "~/utils/errors";
import { ExportIdSchema } from "~/utils/schemas/export";
import type { RowSource } from "../types";

// The selection every export of one report takes (report_id), and who may ask for it: the
// report's readers as on its screens (docs/decisions/021-reports.md): the owner organisation's
// admins (another member: 403, as every report call) and the recipient organisation's admins
// (another member: 404); everyone else 404. A report still generating selects nothing (422).

export type ReportSelection = { report_id: number };

export const ReportSelectionSchema = z.looseObject({ report_id: ExportIdSchema.optional() }).transform((body, ctx) => {
  if (body.report_id === undefined) {
    ctx.addIssue({ code: "custom", path: ["report_id"], message: "exports:errors.emptySelection" });
    return z.NEVER;
  }
  return { report_id: body.report_id };
});

export const reportSuffix = (selection: ReportSelection) => `#${selection.report_id}`;

/**
 * `rows`: what the type writes one row per (the progress figure): the report's tally lines or
 * its logs.
 */
export function reportSource<S extends ReportSelection>(
  revive: (params: unknown) => S,
  rows: "tally" | "logs" = "tally",
): RowSource<S> {
  return {
    async request(db, ctx, selection) {
      const report = await readReportFor(db, ctx.organizationId, selection.report_id);
      if (!report) return "not_found";
      const roles = await listRolesInOrganization(db, ctx.userId, ctx.organizationId);
      if (!isOrganizationAdmin(roles, ctx.organizationId)) {
        if (report.organization_id !== ctx.organizationId) return "not_found";
        forbidden();
      }
      return { selection, count: report.generating_in_progress ? 0 : 1 };
    },
    revive,
    async prepare(db, organizationId, selection) {
      const report = await readReportFor(db, organizationId, selection.report_id);
      if (!report?.details) return { records: 0, expectedRows: 0, leftOut: [] };
      const expectedRows = rows === "logs" ? await countReportLogs(db, report) : report.details.logs.length;
      return { records: 1, expectedRows, leftOut: [] };
    },
  };
}
