import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

// A second reader of the xlsx files: LibreOffice's converter (`npm test` installs Debian's
// libreoffice-calc-nogui when it is missing, as it does Chromium).

// UTF-8, comma separated, and each cell's text as shown (its number format applied), as a person
// opening the file would read it; plain `--convert-to csv` writes the raw values instead.
const CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true";

/**
 * The first sheet of the file as CSV, as LibreOffice shows it. Asynchronous on purpose: a
 * synchronous child process stops the test's event loop for seconds, and fetch then reuses a
 * kept-alive socket the server has closed meanwhile ("other side closed").
 */
export async function convertToCsv(data: Buffer, ext: string) {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "soffice-"));
  try {
    const file = path.join(dir, `in.${ext}`);
    await fs.promises.writeFile(file, data);
    await promisify(execFile)("soffice", ["--headless", "--convert-to", CSV_FILTER, "--outdir", dir, file], {
      env: { ...process.env, HOME: dir },
      timeout: 120_000,
    });
    return (await fs.promises.readFile(path.join(dir, "in.csv"), "utf8")).replace(/\r\n/g, "\n");
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
