// Compares a translation's locale files with the English ones: which keys are missing or extra,
// whose interpolation placeholders differ, and which values were copied from English unchanged.
// Shared by tests/unit/locales.test.ts and scripts/check-locales.ts.
import fs from "node:fs";
import path from "node:path";

export const REFERENCE_LANGUAGE = "en";

/** Flattens a nested locale object into "a.b.c" key paths and their string values. */
export function flattenLocale(tree: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (tree !== null && typeof tree === "object" && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
      flattenLocale(value, prefix ? `${prefix}.${key}` : key, out);
    }
  } else if (prefix) {
    out.set(prefix, typeof tree === "string" ? tree : JSON.stringify(tree));
  }
  return out;
}

/** The i18next interpolations ({{name}}, {{count, number}}) and nestings ($t(key)) in a value, sorted. */
export function placeholdersOf(value: string): string[] {
  const found = new Set<string>();
  for (const m of value.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) found.add(`{{${m[1]}}}`);
  for (const m of value.matchAll(/\$t\(([^)]*)\)/g)) found.add(`$t(${m[1]})`);
  return [...found].sort();
}

/**
 * Values that may stay exactly as in English, as "namespace:key.path".
 * "*" means in every language; a list names the only languages where the English form is
 * also the native one (a true cognate), so a copy anywhere else is still reported.
 */
export const SAME_AS_ENGLISH_ALLOWED: Readonly<Record<string, "*" | readonly string[]>> = {
  // Reports (issue 17): the generated name is "{{storage}} {{date}}"; Excel is the product's name;
  // Status, Confirmation, Volume, Total and the Italian "Report" are the same words.
  "reports:storageReportName": "*",
  "reports:detail.excel": "*",
  "reports:list.status": ["pl", "de"],
  "reports:detail.confirmTitle": ["fr"],
  "reports:detail.volume": ["fr", "pt", "it"],
  "reports:detail.total": ["fr", "pt", "es"],
  "reports:detail.perUnit": ["it"],
  "reports:menu.report": ["it"],
  "reports:bulk.report": ["it"],
  "exports:types.reports_excel": ["it"],
  // Report files (issue 26): PDF and JAS are names; the Hindi file spells them out.
  "reports:files.pdf": "*",
  "reports:files.tallyJas": "*",
  "reports:files.date": ["fr"],
  "exports:types.report_pdf": ["it"],
  // Brand name.
  "common:app.name": "*",
  // Latin species names.
  "lookups:wood_types.1001": "*",
  "lookups:wood_types.1002": "*",
  // Quality grade letters.
  "lookups:wood_qualities.1": "*",
  "lookups:wood_qualities.2": "*",
  "lookups:wood_qualities.3": "*",
  // Formula proper names and standard designations.
  "lookups:formulas.huber.name": "*",
  "lookups:formulas.smalian.name": "*",
  "lookups:formulas.newton.name": "*",
  "lookups:formulas.hoppus.name": "*",
  "lookups:formulas.jas.name": "*",
  "lookups:formulas.gost_2708_75.name": "*",
  "lookups:formulas.doyle.name": "*",
  "lookups:formulas.scribner_decimal_c.name": "*",
  // Unit symbols.
  "lookups:volumeUnits.m^3": "*",
  "lookups:volumeUnits.ft^3": "*",
  "lookups:volumeUnits.fbm": "*",
  "lookups:volumeUnits.pmt": "*",
  // "st", the international symbol of the stere, where the language has no symbol of its own.
  "lookups:volumeUnits.stere": ["fr", "pt", "es", "ka", "hi"],
  // The abbreviation "ID" as the native UI word.
  "measurements:timber.id": ["et", "ru", "pl", "lt", "de", "fr", "pt", "es", "ja", "it", "ka"],
  // Acacia: the genus name is also the common name.
  "lookups:wood_types.1004": ["fr", "es", "it"],
  // "Estonia" is spelled the same.
  "lookups:formulas.estonian_nilson.name": ["pl", "es", "it"],
  // Containers (docs/decisions/022-containers.md): true cognates and shared words.
  "containers:table.container": ["de", "it"],
  // The public container pages (issue 20): Container, Volume and Total are the same words.
  "public:container.container": ["de", "it"],
  "public:container.volumeJas": ["fr", "pt", "it"],
  "public:container.volumeM3": ["fr", "pt", "it"],
  "public:container.total": ["fr", "pt", "es"],
  "containers:fields.name": ["de"],
  "containers:batch.container": ["de", "it"],
  "containers:detail.details": ["de"],
  "containers:excel.columns.container": ["de", "it"],
  "containers:table.volume": ["fr", "pt", "it"],
  "containers:table.actions": ["fr"],
  "containers:table.pages": ["fr"],
  "containers:detail.volume": ["fr", "pt", "it"],
  "containers:detail.photo": ["fr"],
  "containers:excel.columns.volume": ["fr", "pt", "it"],
  "containers:excel.columns.volumeIn": ["fr", "pt", "it"],
  "containers:excel.total": ["fr", "pt", "es"],
  "containers:excel.subtotal": ["pt", "es"],
  "containers:excel.columns.log": ["ja"],
  // True cognates.
  "shell:nav.administration": ["fr"],
  "shell:header.menu": ["pl", "fr", "pt", "it"],
  "lookups:measurementTypes.0": ["fr"],
  "lookups:measurementTypes.3": ["es"],
  "lookups:storageStates.6": ["pl", "de"],
  "measurements:timber.photo": ["fr"],
  "measurements:timber.volume": ["fr", "pt", "it"],
  "measurements:timber.formula": ["it"],
  "auth:login.password": ["it"],
  // Exports: file kinds, pixel axes and cognates.
  // "min" is the unit everywhere; status, name, type, photo and volume are the same word.
  "analysis:detail.minutes": "*",
  "analysis:fields.status": ["pl", "de"],
  "analysis:fields.name": ["de"],
  "analysis:fields.type": ["fr"],
  "analysis:fields.photo": ["fr"],
  "analysis:fields.volume": ["fr", "it", "pt"],
  "exports:list.kinds.excel": "*",
  "exports:button.dashboardExcel": "*",
  "exports:button.measurementPdf": "*",
  "exports:list.kinds.pdf": "*",
  "exports:excel.columns.x": ["et", "ru", "pl", "lt", "de", "fr", "pt", "es", "it", "ka", "hi", "fi"],
  "exports:excel.columns.y": ["et", "ru", "pl", "lt", "de", "fr", "pt", "es", "it", "ka", "hi", "fi"],
  "exports:excel.columns.r": ["de"],
  "exports:excel.columns.volume": ["fr", "it", "pt"],
  "exports:print.volume": ["fr", "it", "pt"],
  "exports:print.total": ["es", "fr", "pt"],
  "exports:list.name": ["de"],
  "exports:list.status": ["de"],
  "exports:list.title": ["fr"],
  "exports:list.type": ["fr"],
  "exports:list.actions": ["fr"],
  // Billing: plan names are product names; cognates.
  "billing:packages.pro_subscription.name": "*",
  "billing:packages.enterprise_subscription.name": "*",
  "billing:packages.container_subscription.name": ["de", "it"],
  "billing:header.upgrade": ["de"],
  "billing:invoices.status": ["de", "pl"],
  "billing:invoices.total": ["es", "fr", "pt"],
  "billing:checkout.total": ["es", "pt"],
  "billing:invoices.number": ["et"],
  "billing:invoices.date": ["fr"],
  // Timber measuring: symbols, the spec's error code, cognates.
  "timber:none": "*",
  // Only placeholders: its parts are plural keys of their own.
  "timber:summary": "*",
  "lumber:summary": "*",
  "timber:detail.noPhoto": "*",
  "timber:storage.name": ["de"],
  "timber:no": ["es", "it"],
  "timber:deleted.total": ["es", "fr", "pt"],
  "timber:filters.dates": ["fr"],
  "timber:table.volume": ["fr", "it", "pt"],
  "timber:table.actions": ["fr"],
  "timber:pager.label": ["fr"],
  "timber:fields.latitude": ["fr", "pt"],
  "timber:fields.longitude": ["fr", "pt"],
  "timber:tables.volume": ["fr", "it", "pt"],
  "timber:manual.volume": ["fr", "it", "pt"],
  "timber:upload.photo": ["fr"],
  "timber:deleted.volume": ["fr", "it", "pt"],
  // Accounts: unit symbols, plan names, cognates.
  "accounts:units.pmt": "*",
  "accounts:units.fbm": ["it"],
  "accounts:devices.packages.pro_subscription": "*",
  "accounts:devices.packages.enterprise_subscription": [
    "de",
    "es",
    "et",
    "fi",
    "hi",
    "it",
    "ja",
    "ka",
    "lt",
    "pl",
    "pt",
    "ru",
  ],
  "accounts:devices.packages.container_subscription": ["de", "it"],
  "accounts:users.name": ["de"],
  "accounts:settings.name": ["de"],
  "accounts:devices.name": ["de"],
  "accounts:customFields.name": ["de"],
  "accounts:timber.columns.name": ["de"],
  "accounts:devices.details": ["de"],
  "accounts:roles.types.Organization": ["de", "fr"],
  "accounts:settings.organization": ["de", "fr"],
  "accounts:users.roles": ["es"],
  "accounts:roles.title": ["es"],
  "accounts:customFields.flags": ["fr"],
  "accounts:customFields.types.date": ["fr"],
  "accounts:register.password": ["it"],
  "accounts:settings.account": ["it"],
  "accounts:settings.password": ["it"],
  // Shipments (issue 22).
  "shipments:cards.volume": ["fr", "it", "pt"],
};

export function sameAsEnglishAllowed(lng: string, ns: string, key: string): boolean {
  const rule = SAME_AS_ENGLISH_ALLOWED[`${ns}:${key}`];
  return rule === "*" || (rule !== undefined && rule.includes(lng));
}

export interface PlaceholderMismatch {
  key: string;
  expected: string[];
  actual: string[];
}

export interface NamespaceComparison {
  missing: string[];
  extra: string[];
  placeholderMismatches: PlaceholderMismatch[];
  /** Keys whose value is the English one and that the allow-list does not permit. */
  sameAsEnglish: string[];
}

const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;

/**
 * The i18next plural keys a language needs for a plural base: one per category whole counts
 * select (Russian: one, few, many, other). Categories only fractions or millions select (French
 * "many") may be present but are not required; i18next falls back to "other" for them.
 */
function pluralKeys(lng: string, base: string) {
  const rules = new Intl.PluralRules(lng);
  const used = new Set(Array.from({ length: 201 }, (_, n) => rules.select(n)));
  return {
    required: [...used].map((c) => `${base}_${c}`),
    allowed: rules.resolvedOptions().pluralCategories.map((c) => `${base}_${c}`),
  };
}

/**
 * English plural groups (x_one + x_other) are matched against the plural forms each language
 * really has (Russian needs x_few and x_many, Japanese only x_other), per Intl.PluralRules.
 */
export function compareWithEnglish(
  lng: string,
  ns: string,
  english: unknown,
  translated: unknown,
): NamespaceComparison {
  const en = flattenLocale(english);
  const tr = flattenLocale(translated);
  const result: NamespaceComparison = { missing: [], extra: [], placeholderMismatches: [], sameAsEnglish: [] };
  const pluralBases = new Set(
    [...en.keys()].map((k) => PLURAL.exec(k)?.[1]).filter((b): b is string => !!b && en.has(`${b}_other`)),
  );
  const expectedKeys = new Map<string, string>(); // translated key -> the English key it answers to
  for (const key of en.keys()) {
    const base = PLURAL.exec(key)?.[1];
    if (base && pluralBases.has(base)) continue;
    expectedKeys.set(key, key);
  }
  const optionalKeys = new Map<string, string>();
  for (const base of pluralBases) {
    const { required, allowed } = pluralKeys(lng, base);
    for (const k of required) expectedKeys.set(k, `${base}_other`);
    for (const k of allowed) if (!required.includes(k)) optionalKeys.set(k, `${base}_other`);
    // English's own plural keys may always be present (Japanese carrying x_one is harmless).
    for (const k of en.keys())
      if (PLURAL.exec(k)?.[1] === base && !required.includes(k)) optionalKeys.set(k, `${base}_other`);
  }

  for (const [key, enKey] of expectedKeys) {
    const enValue = en.get(enKey)!;
    const value = tr.get(key);
    if (value === undefined) {
      result.missing.push(key);
      continue;
    }
    const expected = placeholdersOf(enValue);
    const actual = placeholdersOf(value);
    // A plural form may leave out {{count}} (e.g. "one log"), never add one English lacks.
    const placeholdersOk =
      enKey === key ? expected.join("\n") === actual.join("\n") : actual.every((p) => expected.includes(p));
    if (!placeholdersOk) result.placeholderMismatches.push({ key, expected, actual });
    if (lng !== REFERENCE_LANGUAGE && value === en.get(key) && !sameAsEnglishAllowed(lng, ns, key))
      result.sameAsEnglish.push(key);
  }
  for (const key of tr.keys()) if (!expectedKeys.has(key) && !optionalKeys.has(key)) result.extra.push(key);
  return result;
}

export function localeFile(localesDir: string, lng: string, ns: string): string {
  return path.join(localesDir, lng, `${ns}.json`);
}

/** The parsed file, or undefined when it does not exist. Invalid JSON throws, naming the file. */
export function readLocale(localesDir: string, lng: string, ns: string): unknown {
  const file = localeFile(localesDir, lng, ns);
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export interface LanguageReport {
  lng: string;
  /** Namespaces whose file does not exist. */
  missingFiles: string[];
  namespaces: Record<string, NamespaceComparison>;
}

export function checkLanguage(localesDir: string, lng: string, namespaces: readonly string[]): LanguageReport {
  const report: LanguageReport = { lng, missingFiles: [], namespaces: {} };
  for (const ns of namespaces) {
    const english = readLocale(localesDir, REFERENCE_LANGUAGE, ns) ?? {};
    const translated = readLocale(localesDir, lng, ns);
    if (translated === undefined) report.missingFiles.push(ns);
    report.namespaces[ns] = compareWithEnglish(lng, ns, english, translated ?? {});
  }
  return report;
}
