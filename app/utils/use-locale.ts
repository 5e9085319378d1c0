import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/**
 * Keeps the browser's i18next on the language the server chose. The browser starts with one
 * language's strings; when a navigation switches language, it fetches the new ones first.
 */
export function useLocale(locale: string, version: string) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language === locale) return;
    let cancelled = false;
    (async () => {
      if (!i18n.hasResourceBundle(locale, "common")) {
        const response = await fetch(`/locales/${locale}?v=${version}`);
        if (!response.ok || cancelled) return;
        const namespaces: Record<string, object> = await response.json();
        for (const [ns, strings] of Object.entries(namespaces)) i18n.addResourceBundle(locale, ns, strings, true, true);
      }
      if (!cancelled) await i18n.changeLanguage(locale);
    })();
    return () => {
      cancelled = true;
    };
  }, [locale, version, i18n]);
}
