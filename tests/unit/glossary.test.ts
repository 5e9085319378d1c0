import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NAMESPACES, SUPPORTED_LANGUAGES } from "~/i18n";
import { flattenLocale, readLocale } from "../helpers/locale-keys";

// One word per concept per language (locales/glossary.json): a label that is only the concept
// uses the language's chosen word, and no text of the language uses a rejected synonym (a
// Japanese measurement is 計測 everywhere, never 検知 "detection").

const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));
type Entry = { use: string; avoid?: string[] };
const glossary = JSON.parse(readFileSync(`${localesDir}/glossary.json`, "utf8")) as Record<
  string,
  Record<string, Entry> | string
>;

/** English labels that are the concept and nothing else, e.g. "Storages" or "Log". */
const CONCEPT_LABELS: Record<string, RegExp> = {
  measurement: /^measurements?$/i,
  storage: /^storages?$/i,
  log: /^logs?$/i,
  assortment: /^assortments?$/i,
  cull: /^culls?$/i,
  volume: /^volumes?$/i,
  inventory: /^inventor(y|ies)$/i,
  report: /^reports?$/i,
};

const texts = (lng: string) =>
  new Map(
    NAMESPACES.flatMap((ns) =>
      [...flattenLocale(readLocale(localesDir, lng, ns)).entries()].map(([k, v]) => [`${ns}:${k}`, v] as const),
    ),
  );
const english = texts("en");
const translations = SUPPORTED_LANGUAGES.filter((l) => l !== "en");

describe("the glossary", () => {
  it("covers every translation and every key concept", () => {
    for (const lng of translations) {
      expect(Object.keys(glossary[lng] ?? {}).sort(), lng).toEqual(Object.keys(CONCEPT_LABELS).sort());
    }
  });
});

describe.each(translations)("glossary of %s", (lng) => {
  const entries = glossary[lng] as Record<string, Entry>;
  const translated = texts(lng);

  it.each(Object.keys(CONCEPT_LABELS))("labels '%s' with the chosen word", (concept) => {
    const use = new RegExp(entries[concept].use, "iu");
    const labels = [...english].filter(([, v]) => CONCEPT_LABELS[concept].test(v.trim())).map(([k]) => k);
    expect(labels.length).toBeGreaterThan(0);
    const off = labels.filter((k) => !use.test(translated.get(k) ?? "")).map((k) => `${k} = ${translated.get(k)}`);
    expect(off, `labels of '${concept}' not matching /${entries[concept].use}/`).toEqual([]);
  });

  it("uses no rejected synonym anywhere", () => {
    const avoid = Object.values(entries).flatMap((e) => e.avoid ?? []);
    const found = [...translated].filter(([, v]) =>
      avoid.some((w) => v.toLocaleLowerCase(lng).includes(w.toLocaleLowerCase(lng))),
    );
    expect(found.map(([k, v]) => `${k} = ${v}`)).toEqual([]);
  });
});
