import { fileURLToPath } from "node:url";
import { describe, it, expect } from "vitest";
import { NAMESPACES, SUPPORTED_LANGUAGES } from "~/i18n";
import {
  REFERENCE_LANGUAGE,
  SAME_AS_ENGLISH_ALLOWED,
  compareWithEnglish,
  flattenLocale,
  localeFile,
  readLocale,
} from "../helpers/locale-keys";

const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));
const translations = SUPPORTED_LANGUAGES.filter((lng) => lng !== REFERENCE_LANGUAGE);

describe.each(translations)("locales/%s", (lng) => {
  describe.each(NAMESPACES)("%s.json", (ns) => {
    const load = () => {
      const english = readLocale(localesDir, REFERENCE_LANGUAGE, ns);
      const translated = readLocale(localesDir, lng, ns);
      expect(english, `${localeFile(localesDir, REFERENCE_LANGUAGE, ns)} exists`).toBeDefined();
      expect(translated, `${localeFile(localesDir, lng, ns)} exists`).toBeDefined();
      return compareWithEnglish(lng, ns, english, translated);
    };

    it("has every English key and no other", () => {
      const { missing, extra } = load();
      expect(missing, `keys of en/${ns}.json missing from ${lng}/${ns}.json`).toEqual([]);
      expect(extra, `keys in ${lng}/${ns}.json that en/${ns}.json does not have`).toEqual([]);
    });

    it("keeps the English interpolation placeholders", () => {
      expect(load().placeholderMismatches, `placeholders in ${lng}/${ns}.json differing from English`).toEqual([]);
    });

    it("translates every value not on the allow-list", () => {
      expect(load().sameAsEnglish, `values in ${lng}/${ns}.json copied unchanged from English`).toEqual([]);
    });
  });
});

describe("the same-as-English allow-list", () => {
  const english = new Map(NAMESPACES.map((ns) => [ns, flattenLocale(readLocale(localesDir, REFERENCE_LANGUAGE, ns))]));

  it("names only existing English keys", () => {
    const unknown = Object.keys(SAME_AS_ENGLISH_ALLOWED).filter((entry) => {
      const [ns, key] = entry.split(":") as [string, string];
      return !english.get(ns as (typeof NAMESPACES)[number])?.has(key);
    });
    expect(unknown).toEqual([]);
  });

  it("lists a language only where the value really is the English one", () => {
    const stale: string[] = [];
    for (const [entry, rule] of Object.entries(SAME_AS_ENGLISH_ALLOWED)) {
      if (rule === "*") continue;
      const [ns, key] = entry.split(":") as [string, string];
      const enValue = english.get(ns as (typeof NAMESPACES)[number])?.get(key);
      for (const lng of rule) {
        if (!(translations as readonly string[]).includes(lng))
          stale.push(`${entry} (${lng}: not a supported language)`);
        else if (flattenLocale(readLocale(localesDir, lng, ns)).get(key) !== enValue) stale.push(`${entry} (${lng})`);
      }
    }
    expect(stale).toEqual([]);
  });
});
