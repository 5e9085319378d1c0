import type { Report } from "#db/schema";
import { createReportLogMeter, type LogFormula, type MeteredReportLog } from "~/domain";
import { measurementContext, reportLookups, streamReportLogs } from "~/models/report.server";
import type { DB } from "~/utils/db.server";

// The per-log report exports (report_tally_sheet_excel, report_log_by_log_excel): every live log
// of the report's live measurements, measured by the report's own rule (app/domain/report.ts,
// createReportLogMeter, the one the generation job tallies with), so the rows add up to the
// report's totals. Streamed measurement by measurement.

export interface ReportLogRow {
  measurementId: number;
  storageName: string | null;
  takenAt: Date;
  /** The measured top diameter, cm. */
  d: number;
  lengthM: number | null;
  metered: MeteredReportLog;
  assortmentName: string | null;
  cullName: string | null;
}

export async function* reportLogRows(
  db: DB,
  report: Pick<Report, "id" | "organization_id" | "volume_formula" | "volume_unit">,
  formula: LogFormula = report.volume_formula as LogFormula,
): AsyncGenerator<ReportLogRow> {
  const { assortments, culls } = await reportLookups(db, report.organization_id);
  const assortmentNames = new Map(assortments.map((a) => [a.id, a.name]));
  const cullNames = new Map(culls.map((c) => [c.id, c.name]));
  const meter = createReportLogMeter(formula, report.volume_unit);
  let current = -1;
  let context = measurementContext({ log_length: null, assortment_id: null, coefficient: null, wood_type_id: null });
  for await (const row of streamReportLogs(db, report)) {
    if (row.measurement_id !== current) {
      current = row.measurement_id;
      context = measurementContext({
        log_length: row.log_length,
        assortment_id: row.measurement_assortment_id,
        coefficient: row.coefficient,
        wood_type_id: row.wood_type_id,
      });
    }
    const metered = meter(context, { d: Number(row.d), cullId: row.cull_id, assortmentId: row.assortment_id });
    if (!metered) continue;
    yield {
      measurementId: row.measurement_id,
      storageName: row.storage_name ?? null,
      takenAt: row.taken_at,
      d: Number(row.d),
      lengthM: context.logLengthM,
      metered,
      assortmentName:
        metered.characteristicId === null
          ? null
          : (assortmentNames.get(metered.characteristicId) ?? `#${metered.characteristicId}`),
      cullName: metered.cullId === null ? null : (cullNames.get(metered.cullId) ?? `#${metered.cullId}`),
    };
  }
}
