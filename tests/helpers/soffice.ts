import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// A second reader of the xlsx files: LibreOffice's converter, when this machine has it (it is not
// one of the project's install steps, so tests only add this check where it is installed).

export function hasSoffice() {
  try {
    execFileSync("which", ["soffice"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The first sheet of the file as CSV, as `soffice --headless --convert-to csv` writes it. */
export function convertToCsv(data: Buffer, ext: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soffice-"));
  try {
    const file = path.join(dir, `in.${ext}`);
    fs.writeFileSync(file, data);
    execFileSync("soffice", ["--headless", "--convert-to", "csv", "--outdir", dir, file], {
      stdio: "ignore",
      env: { ...process.env, HOME: dir },
      timeout: 120_000,
    });
    return fs.readFileSync(path.join(dir, "in.csv"), "utf8").replace(/\r\n/g, "\n");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
