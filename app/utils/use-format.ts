import { useRouteLoaderData } from "@remix-run/react";
import {
  convertVolume,
  formatCoordinate,
  formatCount,
  formatDate,
  formatDateTime,
  formatDiameter,
  formatNumber,
  formatQuantity,
  formatVolume,
} from "~/domain";
import type { AnyVolumeUnit, VolumeUnit } from "~/domain";
import { intlLocale } from "~/i18n";
import type { RootLoader } from "~/root";
import type { AppLoader } from "~/routes/_app+/_layout";

/**
 * The signed-in user's formats for everything a person reads on a screen: numbers in the
 * language's Intl format, dates as dd.MM.yyyy on the user's time zone, volumes in the user's
 * unit and precision. Screens use this instead of toFixed or their own Intl formatters. Outside
 * the shell (public pages) numbers follow the page's language.
 */
export function useFormat() {
  const app = useRouteLoaderData<AppLoader>("routes/_app+/_layout");
  const root = useRouteLoaderData<RootLoader>("root");
  return formatsFor({
    locale: app?.user.locale ?? root?.locale ?? "en",
    timeZone: app?.user.timeZone ?? "UTC",
    precision: app?.user.roundingPrecision ?? 2,
    unit: (app?.user.volumeUnit ?? "m^3") as VolumeUnit,
  });
}

export function formatsFor(user: { locale: string; timeZone: string; precision: number; unit: VolumeUnit }) {
  const locale = intlLocale(user.locale);
  return {
    locale,
    count: (n: number) => formatCount(n, locale),
    number: (n: number, decimals: number) => formatNumber(n, decimals, locale),
    quantity: (n: number | null | undefined, decimals: number, unit: string) =>
      formatQuantity(n, decimals, unit, locale),
    diameter: (cm: number | null | undefined) => formatDiameter(cm, { locale, withUnit: true }),
    coordinate: (v: number | null | undefined, decimals: 5 | 6 = 6) => formatCoordinate(v, { decimals, locale }),
    /** A stored m³ volume in the user's unit and precision, with the unit. */
    volume: (m3: number, unit: AnyVolumeUnit = user.unit) =>
      formatVolume(unit === "m^3" ? m3 : convertVolume(m3, "m^3", unit as VolumeUnit), {
        precision: user.precision,
        unit,
        locale,
      }),
    date: (v: Date | string | null | undefined) => formatDate(v, user.timeZone),
    dateTime: (v: Date | string | null | undefined) => formatDateTime(v, user.timeZone),
  };
}
