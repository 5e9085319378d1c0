import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// A second reader of the xlsx files: LibreOffice's converter (`npm test` installs Debian's
// libreoffice-calc-nogui when it is missing, as it does Chromium).

// UTF-8, comma separated, and each cell's text as shown (its number format applied), as a person
// opening the file would read it; plain `--convert-to csv` writes the raw values instead.
const CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true";

/** The first sheet of the file as CSV, as LibreOffice shows it. */
export function convertToCsv(data: Buffer, ext: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soffice-"));
  try {
    const file = path.join(dir, `in.${ext}`);
    fs.writeFileSync(file, data);
    execFileSync("soffice", ["--headless", "--convert-to", CSV_FILTER, "--outdir", dir, file], {
      stdio: "ignore",
      env: { ...process.env, HOME: dir },
      timeout: 120_000,
    });
    return fs.readFileSync(path.join(dir, "in.csv"), "utf8").replace(/\r\n/g, "\n");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
