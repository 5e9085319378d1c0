import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  apiToken,
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  insertManyLogs,
  webCookie,
} from "#tests/factories";
import { download, hasPoppler, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// The measurement PDF laid out for A4: the organisation, storage, photo with overlay, details
// and logs sheet with totals on one page for an ordinary stack, more pages only for a sheet that
// needs them, and never a page with nothing but a footer.

/** The text of each page of the PDF (pdftotext page by page). */
function pageTexts(data: Buffer): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-pages-"));
  try {
    const file = path.join(dir, "in.pdf");
    fs.writeFileSync(file, data);
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
    return Array.from({ length: pages }, (_, i) =>
      execFileSync("pdftotext", ["-layout", "-f", String(i + 1), "-l", String(i + 1), file, "-"], { encoding: "utf8" }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function setup() {
  const org = await createOrganization({ name: "Põhja Mets OÜ" });
  const user = await createUser(org.id, { role: "admin" });
  await db().updateTable("users").set({ time_zone: "UTC" }).where("id", "=", user.id).execute();
  const storage = await createStorage(org.id, { name: "Riverside landing" });
  return { org, storage, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

async function printed(s: Awaited<ReturnType<typeof setup>>, measurementId: number) {
  const res = await api(`/api/web_app/pdf_exports/${measurementId}`, {
    token: s.token,
    json: { report_type: "measurement_pdf" },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  await waitForExport(res.data.id, 90_000);
  return pageTexts((await download(res.data.id, { cookie: s.cookie })).body);
}

/** A measurement whose logs sheet has one row per centimetre from `from` to `to`. */
async function withSheetRows(s: Awaited<ReturnType<typeof setup>>, from: number, to: number) {
  const m = await createMeasuredStack(s.org.id, s.storage.id, { seed: 5, photo: false });
  await db().deleteFrom("logs").where("measurement_id", "=", m.id).execute();
  const rows = [];
  for (let d = from; d <= to; d++) {
    rows.push({ organization_id: s.org.id, measurement_id: m.id, x: d, y: 10, r: 5, d: d + 0.2, v: 0.1 });
  }
  await db().insertInto("logs").values(rows).execute();
  await db().updateTable("measurements").set({ logs_count: rows.length }).where("id", "=", m.id).execute();
  return m;
}

describe.skipIf(!hasPoppler())("measurement PDF on A4", () => {
  it("one log: one page with the organisation, storage, details and the sheet's totals", async () => {
    const s = await setup();
    const m = await withSheetRows(s, 30, 30);
    const pages = await printed(s, m.id);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain("Põhja Mets OÜ");
    expect(pages[0]).toContain("Riverside landing");
    expect(pages[0]).toContain(`Measurement #${m.id}`);
    expect(pages[0]).toContain("Logs sheet");
    expect(pages[0]).toMatch(/Total\s+Logs: 1\b/);
  });

  it("2,000 logs with a photo: still one page, every log counted", async () => {
    const s = await setup();
    const m = await createMeasuredStack(s.org.id, s.storage.id, { seed: 9 });
    await insertManyLogs(s.org.id, m.id, 2000 - m.logsCount);
    const pages = await printed(s, m.id);
    expect(pages, pages.join("\n---- next page ----\n")).toHaveLength(1);
    expect(pages[0]).toMatch(/Logs: 2,000\b/);
    // Chromium prints the 2,000-log overlay; on a loaded machine that took past the default 30 s.
  }, 90_000);

  it("a sheet longer than the first page continues on full pages, none of them empty", async () => {
    const s = await setup();
    // 111 diameter rows: 42 under the photo and details, the other 69 on a second page.
    const m = await withSheetRows(s, 10, 120);
    const pages = await printed(s, m.id);
    expect(pages).toHaveLength(2);
    for (const text of pages) expect(text.replace(/\s+/g, "")).toMatch(/\d+\.\d{2}/);
    expect(pages[1]).toContain("Total");
  });
});
