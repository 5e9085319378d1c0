// Lists, per language, the English locale keys its files lack. Exits 1 when any key (or file) is missing.
// Usage: npx tsx scripts/check-locales.ts
import { fileURLToPath } from "node:url";
import { NAMESPACES, SUPPORTED_LANGUAGES } from "../app/i18n";
import { REFERENCE_LANGUAGE, checkLanguage } from "../tests/helpers/locale-keys";

const localesDir = fileURLToPath(new URL("../locales", import.meta.url));
let missingTotal = 0;

for (const lng of SUPPORTED_LANGUAGES) {
  if (lng === REFERENCE_LANGUAGE) continue;
  const report = checkLanguage(localesDir, lng, NAMESPACES);
  const lines: string[] = [];
  for (const ns of report.missingFiles) lines.push(`  missing file ${lng}/${ns}.json`);
  for (const [ns, result] of Object.entries(report.namespaces)) {
    missingTotal += result.missing.length;
    for (const key of result.missing) lines.push(`  missing  ${ns}:${key}`);
    // Reported for information; the unit test fails on these.
    for (const key of result.extra) lines.push(`  extra    ${ns}:${key}`);
    for (const m of result.placeholderMismatches) {
      lines.push(
        `  placeholders ${ns}:${m.key}: expected ${m.expected.join(" ") || "none"}, found ${m.actual.join(" ") || "none"}`,
      );
    }
  }
  console.log(lines.length ? `${lng}:\n${lines.join("\n")}` : `${lng}: complete`);
}

if (missingTotal > 0) {
  console.log(`\n${missingTotal} missing key(s).`);
  process.exit(1);
}
