// Shared by server and browser: which languages and namespaces exist.
export const SUPPORTED_LANGUAGES = [
  "en",
  "et",
  "ru",
  "pl",
  "lt",
  "de",
  "fr",
  "pt",
  "es",
  "ja",
  "it",
  "ka",
  "hi",
  "fi",
] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
/** The spec's login language menu offers this subset. */
export const LOGIN_LANGUAGES: Language[] = ["en", "et", "ru", "pl", "lt", "fr", "pt", "es", "fi"];
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  et: "Eesti",
  ru: "Русский",
  pl: "Polski",
  lt: "Lietuvių",
  de: "Deutsch",
  fr: "Français",
  pt: "Português (Brasil)",
  es: "Español",
  ja: "日本語",
  it: "Italiano",
  ka: "ქართული",
  hi: "हिन्दी",
  fi: "Suomi",
};
export const NAMESPACES = [
  "common",
  "auth",
  "shell",
  "lookups",
  "measurements",
  "exports",
  "billing",
  "timber",
  "accounts",
  "public",
  "lumber",
  "inventories",
  "trucks",
  "analysis",
  "mixed-stack",
  "trust",
  "containers",
  "shipments",
  "reports",
] as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export default {
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: "en",
  defaultNS: "common",
  ns: [...NAMESPACES],
  interpolation: { escapeValue: false },
};

/** The Intl locale for formatting dates and numbers: the spec's default date format is en-GB. */
export function intlLocale(lng: string): string {
  return ({ en: "en-GB", pt: "pt-BR", ka: "ka-GE" } as Record<string, string>)[lng] ?? lng;
}
