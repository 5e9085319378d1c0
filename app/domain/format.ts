/**
 * Display formatting shared by screens and exports. Numbers are rounded half away from zero on
 * their decimal value (roundHalfUp) before Intl formats them, so 0.0005 at 3 decimals shows
 * 0.001 everywhere (Intl alone would round the binary value 0.000499999... down).
 * A volume of exactly zero shows as a dash (spec: "A value of zero is shown as a dash"); so does
 * a missing or non-finite value. A non-zero value that rounds to 0 still shows digits (0.000),
 * so a tiny volume is not mistaken for none.
 */
import { roundHalfUp } from "./numeric";
import type { AnyVolumeUnit } from "./units";

export const DASH = "-";

export const VOLUME_UNIT_LABELS: Readonly<Record<AnyVolumeUnit, string>> = {
  "m^3": "m³",
  "ft^3": "ft³",
  fbm: "FBM",
  pmt: "PMT",
  stere: "st",
  "hoppus_m^3": "hoppus m³",
  "hoppus_ft^3": "hoppus ft³",
};

export function volumeUnitLabel(unit: AnyVolumeUnit): string {
  return VOLUME_UNIT_LABELS[unit] ?? unit;
}

const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, decimals: number, grouping: boolean): Intl.NumberFormat {
  const key = `${locale}|${decimals}|${grouping ? 1 : 0}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: grouping,
    });
    formatters.set(key, f);
  }
  return f;
}

/** A number with exactly `decimals` decimals, rounded half away from zero, locale-aware. */
export function formatNumber(value: number, decimals: number, locale = "en", grouping = true): string {
  const rounded = roundHalfUp(value, decimals);
  return numberFormat(locale, decimals, grouping).format(rounded === 0 ? 0 : rounded);
}

export type RoundingPrecision = 1 | 2 | 3 | 4;

export function clampPrecision(precision: number): RoundingPrecision {
  if (!Number.isFinite(precision)) return 2;
  return Math.min(4, Math.max(1, Math.round(precision))) as RoundingPrecision;
}

export interface FormatVolumeOptions {
  /** User's rounding precision, 1 to 4 decimals (spec). Default 2. */
  precision?: number;
  unit?: AnyVolumeUnit;
  locale?: string;
  /** Append the unit label (default true when a unit is given). */
  withUnit?: boolean;
}

export function formatVolume(value: number | null | undefined, options: FormatVolumeOptions = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return DASH;
  const text = formatNumber(value, clampPrecision(options.precision ?? 2), options.locale ?? "en");
  const withUnit = options.withUnit ?? options.unit !== undefined;
  return withUnit && options.unit ? `${text} ${volumeUnitLabel(options.unit)}` : text;
}

export interface FormatDiameterOptions {
  locale?: string;
  unit?: "cm" | "in";
  withUnit?: boolean;
}

/** Diameters show one decimal (log labels in the editor, reports). Input always in cm. */
export function formatDiameter(valueCm: number | null | undefined, options: FormatDiameterOptions = {}): string {
  if (valueCm === null || valueCm === undefined || !Number.isFinite(valueCm)) return DASH;
  const unit = options.unit ?? "cm";
  const value = unit === "in" ? valueCm / 2.54 : valueCm;
  const text = formatNumber(value, 1, options.locale ?? "en");
  return options.withUnit ? `${text} ${unit}` : text;
}

/**
 * Coordinates: 6 decimals by default (storage form step 0.000001), 5 for truck displays (spec).
 * No digit grouping; the decimal separator follows the locale.
 */
export function formatCoordinate(
  value: number | null | undefined,
  options: { decimals?: 5 | 6; locale?: string } = {},
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return formatNumber(value, options.decimals ?? 6, options.locale ?? "en", false);
}

/** Money from integer cents, e.g. 123456 -> "1,234.56" (currency symbol is the caller's). */
export function formatCents(cents: number, locale = "en"): string {
  return formatNumber(cents / 100, 2, locale);
}

/** A count a person reads (logs, planks, measurements), grouped the locale's way. */
export function formatCount(value: number, locale = "en"): string {
  return formatNumber(value, 0, locale);
}

/** A length or other plain decimal with a unit symbol, e.g. "4,20 m" in Estonian. */
export function formatQuantity(
  value: number | null | undefined,
  decimals: number,
  unit: string,
  locale = "en",
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return `${formatNumber(value, decimals, locale)} ${unit}`;
}

const dateParts = new Map<string, Intl.DateTimeFormat>();

function wallClockParts(value: Date, timeZone: string) {
  let f = dateParts.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    dateParts.set(timeZone, f);
  }
  return Object.fromEntries(f.formatToParts(value).map((p) => [p.type, p.value])) as Record<string, string>;
}

type DateInput = Date | string | number | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Dates in tables, filters, exports and PDFs: dd.MM.yyyy on the user's time zone's calendar,
 * whatever the language (the spec fixes this format; four-digit years).
 */
export function formatDate(value: DateInput, timeZone = "UTC"): string {
  const d = toDate(value);
  if (!d) return DASH;
  const p = wallClockParts(d, timeZone);
  return `${p.day}.${p.month}.${p.year}`;
}

/** dd.MM.yyyy HH:mm on the user's time zone's wall clock (24-hour). */
export function formatDateTime(value: DateInput, timeZone = "UTC"): string {
  const d = toDate(value);
  if (!d) return DASH;
  const p = wallClockParts(d, timeZone);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}

/** A yyyy-MM-dd value (what forms submit) shown as dd.MM.yyyy; anything else unchanged. */
export function isoDayToDisplay(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

/** dd.MM.yyyy (also d.M.yyyy) typed by a person, to yyyy-MM-dd; null when it is not a real date. */
export function displayDayToIso(text: string): string | null {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return trimmed;
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(trimmed);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${m[3]}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
