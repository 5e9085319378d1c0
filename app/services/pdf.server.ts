import { chromium } from "playwright-core";
import { env } from "~/utils/env.server";

// PDFs are printed by Chromium from a print route of the app. One browser per job: a launch
// costs ~0.3 s and a crashed page cannot poison the next export.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** `margin`: one page margin for every side (a CSS length); the default leaves 12-14 mm. */
export async function printPdf(url: string, opts: { margin?: string } = {}): Promise<Buffer> {
  const browser = await chromium.launch({ executablePath: env().CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage();
    const response = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    if (!response || !response.ok()) throw new Error(`print page answered ${response?.status() ?? "nothing"}`);
    await page.waitForSelector("[data-print-ready]", { timeout: 30_000 });
    await page.emulateMedia({ media: "print" });
    return await page.pdf({
      format: "A4",
      printBackground: true,
      preferCSSPageSize: true,
      margin:
        opts.margin === undefined
          ? { top: "12mm", bottom: "14mm", left: "12mm", right: "12mm" }
          : { top: opts.margin, bottom: opts.margin, left: opts.margin, right: opts.margin },
    });
  } finally {
    await browser.close();
  }
}
