/**
 * Display formatting shared by screens and exports. Numbers are rounded half away from zero on
 * their decimal value (roundHalfUp) before Intl formats them, so 0.0005 at 3 decimals shows
 * 0.001 everywhere (Intl alone would round the binary value 0.000499999... down).
 * A volume of exactly zero shows as a dash (spec: "A value of zero is shown as a dash"); so does
 * a missing or non-finite value. A non-zero value that rounds to 0 still shows digits (0.000),
 * so a tiny volume is not mistaken for none.
 */
import { roundHalfUp } from './numeric';
import type { AnyVolumeUnit } from './units';

export const DASH = '-';

export const VOLUME_UNIT_LABELS: Readonly<Record<AnyVolumeUnit, string>> = {
  'm^3': 'm³',
  'ft^3': 'ft³',
  fbm: 'FBM',
  pmt: 'PMT',
  stere: 'st',
  'hoppus_m^3': 'hoppus m³',
  'hoppus_ft^3': 'hoppus ft³',
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
export function formatNumber(value: number, decimals: number, locale = 'en', grouping = true): string {
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
  const text = formatNumber(value, clampPrecision(options.precision ?? 2), options.locale ?? 'en');
  const withUnit = options.withUnit ?? options.unit !== undefined;
  return withUnit && options.unit ? `${text} ${volumeUnitLabel(options.unit)}` : text;
}

export interface FormatDiameterOptions {
  locale?: string;
  unit?: 'cm' | 'in';
  withUnit?: boolean;
}

/** Diameters show one decimal (log labels in the editor, reports). Input always in cm. */
export function formatDiameter(valueCm: number | null | undefined, options: FormatDiameterOptions = {}): string {
  if (valueCm === null || valueCm === undefined || !Number.isFinite(valueCm)) return DASH;
  const unit = options.unit ?? 'cm';
  const value = unit === 'in' ? valueCm / 2.54 : valueCm;
  const text = formatNumber(value, 1, options.locale ?? 'en');
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
  return formatNumber(value, options.decimals ?? 6, options.locale ?? 'en', false);
}

/** Money from integer cents, e.g. 123456 -> "1,234.56" (currency symbol is the caller's). */
export function formatCents(cents: number, locale = 'en'): string {
  return formatNumber(cents / 100, 2, locale);
}
