import { formatNumber } from "~/domain";
import { intlLocale } from "~/i18n";

// The editor draws log labels outside React (canvas and Paper.js), so it cannot use useFormat;
// the page's language (html lang, the user's locale) gives the same decimal separator.
let locale: string | undefined;

/** A log's diameter label: one decimal in the user's number format ("27,2" in Estonian). */
export function diameterLabel(d: number): string {
  locale ??= intlLocale(typeof document === "undefined" ? "en" : document.documentElement.lang || "en");
  return formatNumber(d, 1, locale, false);
}
