import { convertVolume, LOG_FORMULAS, type AnyVolumeUnit, type LogFormula, type VolumeUnit } from "~/domain";

// What the Excel report types share (the types themselves are modules under exports/, listed in
// exports/registry.server.ts). Rules chosen here (the spec leaves the content to us):
// - Volumes are shown in the owner's volume unit (users.volume_unit), converted from the
//   formula's own unit with the domain's convertVolume (stere uses the measurement's stacking
//   coefficient when it has one). The unit is in the column header.
// - Dates are the owner's wall-clock time (users.time_zone). Texts are in the owner's language.

/** Rows between two backpressure waits (and progress notes) of a streamed sheet. */
export const EXCEL_BATCH = 2000;

export function decimalsFormat(decimals: number) {
  return decimals > 0 ? `0.${"0".repeat(decimals)}` : "0";
}

/** The wall-clock time in `timeZone` as a Date whose UTC fields carry it (what Excel stores). */
export function wallClock(date: Date, timeZone: string): Date {
  const parts = wallClockFormatter(timeZone).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return new Date(
    Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour") % 24,
      get("minute"),
      get("second"),
      date.getUTCMilliseconds(),
    ),
  );
}
const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClockFormatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
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

/** Dates and times in every sheet as the spec displays them: dd.MM.yyyy with a 24-hour time. */
export const EXCEL_DATE_TIME = "dd.mm.yyyy hh:mm";
