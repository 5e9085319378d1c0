import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { db } from "~/utils/db.server";
import { baseUrl } from "./http";
import { convertToCsv } from "./soffice";
import { waitFor } from "./wait";

/** Waits until the export leaves status 0 and returns its row. */
export function waitForExport(id: number, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const row = await db().selectFrom("exports").selectAll().where("id", "=", id).executeTakeFirst();
      return row && row.status !== 0 ? row : null;
    },
    { timeoutMs, what: `export ${id}` },
  );
}

export async function download(id: number, auth: { cookie?: string; token?: string }) {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.Cookie = auth.cookie;
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  const res = await fetch(`${baseUrl()}/exports/${id}/download`, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * The workbook as exceljs reads it, after LibreOffice has opened the same bytes: every xlsx a test
 * reads must also open in the program people use, with the first sheet's header row as exceljs sees it.
 */
export async function readXlsx(data: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const csv = convertToCsv(data, "xlsx");
  const firstRow = wb.worksheets[0]?.getRow(1);
  const firstText = firstRow?.values && (firstRow.values as unknown[]).find((v) => typeof v === "string");
  if (typeof firstText === "string" && !csv.includes(firstText.split("\n")[0].replaceAll('"', '""'))) {
    throw new Error(`LibreOffice read the file but not its first cell "${firstText}": ${csv.slice(0, 300)}`);
  }
  return wb;
}

/** The PDF's text (pdftotext -layout) and its page count (pages rendered by pdftoppm). */
export function readPdf(data: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-"));
  try {
    const file = path.join(dir, "in.pdf");
    fs.writeFileSync(file, data);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    execFileSync("pdftoppm", ["-r", "20", "-png", file, path.join(dir, "page")]);
    const pages = fs.readdirSync(dir).filter((f) => f.startsWith("page")).length;
    return { text, pages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function hasPoppler() {
  try {
    execFileSync("which", ["pdftotext"], { stdio: "ignore" });
    execFileSync("which", ["pdftoppm"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
