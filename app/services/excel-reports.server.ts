import type { Writable } from "node:stream";
import type { TFunction } from "i18next";
import { clampPrecision, convertVolume, LOG_FORMULAS, roundHalfUp, volumeUnitLabel, type AnyVolumeUnit, type LogFormula, type VolumeUnit } from "~/domain";
import { streamDashboardRows, streamLogRows, storageTotals, type Selection } from "~/models/export-rows.server";
import type { DB } from "~/utils/db.server";
import { createWorkbook, SheetWriter, type SheetColumn } from "./xlsx-writer.server";

/**
 * The Excel report types. Rules chosen here (the spec leaves the content to us):
 * - Volumes are shown in the owner's volume unit (users.volume_unit), converted from the
 *   formula's own unit with the domain's convertVolume (stere uses the measurement's stacking
 *   coefficient when it has one). The unit is in the column header.
 * - log_by_log_excel holds what the screens show: the diameter rounded to 1 decimal (cm), the
 *   volume rounded half up to the owner's precision (1-4 decimals), so a sum in Excel adds the
 *   numbers the user sees on the screen.
 * - precise_log_by_log_excel holds the stored values unrounded (diameter and volume as the
 *   domain computed them, shown with 3 and 6 decimals) plus the raw pixel circle (x, y, r in
 *   image pixels): what an auditor or a reprocessing tool needs.
 * - Dates are the owner's wall-clock time (users.time_zone). Texts are in the owner's language.
 */

export interface ExcelContext {
  db: DB;
  organizationId: number;
  selection: Selection;
  t: TFunction;
  precision: number;
  volumeUnit: VolumeUnit;
  timeZone: string;
  /** Expected number of data rows, for the progress figure. */
  expectedRows: number;
  onProgress: (fraction: number) => Promise<void>;
}

export interface ExcelResult {
  rowCount: number;
}

const BATCH = 2000;

function decimalsFormat(decimals: number) {
  return decimals > 0 ? `0.${"0".repeat(decimals)}` : "0";
}

/** The wall-clock time in `timeZone` as a Date whose UTC fields carry it (what Excel stores). */
export function wallClock(date: Date, timeZone: string): Date {
  const parts = wallClockFormatter(timeZone).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return new Date(Date.UTC(get("year"), get("month") - 1, get("day"), get("hour") % 24, get("minute"), get("second"), date.getUTCMilliseconds()));
}
const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClockFormatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    } catch {
      f = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** A volume in the formula's unit, in the owner's unit. */
export function toUserVolume(v: number, formula: string, userUnit: VolumeUnit, coefficient: number | null) {
  const from: AnyVolumeUnit = LOG_FORMULAS[formula as LogFormula]?.unit ?? "m^3";
  const factor = coefficient && coefficient > 0 && coefficient <= 1 ? coefficient : 1;
  return convertVolume(v, from, userUnit, { stereSolidFactor: factor });
}

export async function writeLogByLog(out: Writable, ctx: ExcelContext, precise: boolean): Promise<ExcelResult> {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const columns: SheetColumn[] = [
    { header: t("excel.columns.storage"), kind: "text", width: 24 },
    { header: t("excel.columns.measurementId"), kind: "int", width: 14 },
    { header: t("excel.columns.takenAt"), kind: "date", numFmt: "yyyy-mm-dd hh:mm", width: 18 },
    { header: t("excel.columns.logNumber"), kind: "int", width: 10 },
    { header: t("excel.columns.diameter", { unit: "cm" }), kind: "number", numFmt: precise ? "0.000" : "0.0", width: 14 },
    { header: t("excel.columns.length", { unit: "m" }), kind: "number", numFmt: "0.00", width: 12 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: precise ? "0.000000" : decimalsFormat(precision), width: 14 },
    { header: t("excel.columns.assortment"), kind: "text", width: 24 },
    { header: t("excel.columns.cull"), kind: "text", width: 20 },
  ];
  if (precise) {
    columns.push(
      { header: t("excel.columns.x", { unit: "px" }), kind: "number", numFmt: "0.00", width: 10 },
      { header: t("excel.columns.y", { unit: "px" }), kind: "number", numFmt: "0.00", width: 10 },
      { header: t("excel.columns.r", { unit: "px" }), kind: "number", numFmt: "0.00", width: 10 },
    );
  }
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t(precise ? "excel.sheets.preciseLogs" : "excel.sheets.logs"), columns);

  let measurementId = -1;
  let logNumber = 0;
  let takenAt = new Date(0);
  for await (const row of streamLogRows(ctx.db, ctx.organizationId, ctx.selection, { pixels: precise })) {
    if (row.measurement_id !== measurementId) {
      measurementId = row.measurement_id;
      logNumber = 0;
      takenAt = wallClock(row.taken_at, ctx.timeZone);
    }
    logNumber++;
    const v = toUserVolume(row.v, row.volume_formula, ctx.volumeUnit, row.coefficient);
    const values = [
      row.storage_name,
      row.measurement_id,
      takenAt,
      logNumber,
      precise ? row.d : roundHalfUp(row.d, 1),
      row.log_length,
      precise ? v : roundHalfUp(v, precision),
      row.assortment_name,
      row.cull_reason,
    ];
    if (precise) values.push(row.x, row.y, row.r);
    sheet.add(values);
    if (sheet.count % BATCH === 0) {
      await sheet.drain();
      if (sheet.count % (BATCH * 10) === 0) await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}

export async function writeDashboard(out: Writable, ctx: ExcelContext): Promise<ExcelResult> {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const volumeFmt = decimalsFormat(precision);
  const wb = createWorkbook(out);

  // Storages first: the dashboard's left column, one line per storage with its totals.
  const storages = new SheetWriter(wb, t("excel.sheets.storages"), [
    { header: t("excel.columns.storage"), kind: "text", width: 28 },
    { header: t("excel.columns.storageState"), kind: "text", width: 16 },
    { header: t("excel.columns.measurements"), kind: "int", width: 14 },
    { header: t("excel.columns.logs"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: volumeFmt, width: 14 },
  ]);
  // One SQL group per storage and formula, each converted from its formula's unit.
  const totals = new Map<number, { name: string; state: number; measurements: number; logs: number; volume: number }>();
  for (const g of await storageTotals(ctx.db, ctx.organizationId, ctx.selection)) {
    let s = totals.get(g.id);
    if (!s) totals.set(g.id, (s = { name: g.name, state: g.storage_state_id, measurements: 0, logs: 0, volume: 0 }));
    s.measurements += Number(g.measurements_count);
    s.logs += Number(g.logs_count ?? 0);
    s.volume += toUserVolume(Number(g.volume ?? 0), g.volume_formula, ctx.volumeUnit, null);
  }
  for (const s of totals.values()) {
    storages.add([
      s.name,
      t(`lookups:storageStates.${s.state}`, { defaultValue: String(s.state) }),
      s.measurements,
      s.logs,
      roundHalfUp(s.volume, precision),
    ]);
  }
  storages.commit();

  const sheet = new SheetWriter(wb, t("excel.sheets.measurements"), [
    { header: t("excel.columns.measurementId"), kind: "int", width: 12 },
    { header: t("excel.columns.storage"), kind: "text", width: 24 },
    { header: t("excel.columns.takenAt"), kind: "date", numFmt: "yyyy-mm-dd hh:mm", width: 18 },
    { header: t("excel.columns.measuredAt"), kind: "date", numFmt: "yyyy-mm-dd hh:mm", width: 18 },
    { header: t("excel.columns.measurementType"), kind: "text", width: 14 },
    { header: t("excel.columns.woodType"), kind: "text", width: 16 },
    { header: t("excel.columns.woodQuality"), kind: "text", width: 12 },
    { header: t("excel.columns.assortment"), kind: "text", width: 24 },
    { header: t("excel.columns.length", { unit: "m" }), kind: "number", numFmt: "0.00", width: 12 },
    { header: t("excel.columns.logs"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: volumeFmt, width: 14 },
    { header: t("excel.columns.formula"), kind: "text", width: 16 },
    { header: t("excel.columns.comment"), kind: "text", width: 30 },
  ]);
  for await (const m of streamDashboardRows(ctx.db, ctx.organizationId, ctx.selection)) {
    sheet.add([
      m.id,
      m.storage_name,
      wallClock(m.taken_at, ctx.timeZone),
      m.measured_at ? wallClock(m.measured_at, ctx.timeZone) : null,
      t(`lookups:measurementTypes.${m.measurement_type_id}`, { defaultValue: String(m.measurement_type_id) }),
      m.wood_type_id === null ? null : m.wood_type_org === null ? t(`lookups:wood_types.${m.wood_type_id}`, { defaultValue: m.wood_type_name ?? "" }) : m.wood_type_name,
      m.wood_quality_id === null ? null : m.wood_quality_org === null ? t(`lookups:wood_qualities.${m.wood_quality_id}`, { defaultValue: m.wood_quality_name ?? "" }) : m.wood_quality_name,
      m.assortment_name,
      m.log_length,
      m.logs_count,
      roundHalfUp(toUserVolume(m.volume, m.volume_formula, ctx.volumeUnit, m.coefficient), precision),
      t(`lookups:formulas.${m.volume_formula}.name`, { defaultValue: m.volume_formula }),
      m.comment,
    ]);
    if (sheet.count % BATCH === 0) {
      await sheet.drain();
      await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
