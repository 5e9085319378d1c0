import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import {
  apiToken,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { download, hasPoppler, readPdf, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { publicTokensOf } from "~/models/public-link.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

// Issue 26: QR labels (feature qr_code). The PDF is rendered to page images and every QR code
// on them is decoded; each must hold the public page address of its record, whose link was made
// when the labels were asked for.

/** Every QR code found on the PDF's pages (each label cut out of its page and decoded). */
function decodeLabels(pdf: Buffer, columns: number, rows: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "qr-"));
  try {
    fs.writeFileSync(path.join(dir, "in.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", "200", "-gray", path.join(dir, "in.pdf"), path.join(dir, "page")]);
    const found: string[] = [];
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".pgm"))
      .sort()) {
      const { width, height, pixels } = readPgm(fs.readFileSync(path.join(dir, file)));
      const cellW = Math.floor(width / columns);
      const cellH = Math.floor(height / rows);
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < columns; c++) {
          const rgba = new Uint8ClampedArray(cellW * cellH * 4);
          for (let y = 0; y < cellH; y++)
            for (let x = 0; x < cellW; x++) {
              const v = pixels[(r * cellH + y) * width + c * cellW + x];
              rgba.set([v, v, v, 255], (y * cellW + x) * 4);
            }
          const code = jsQR(rgba, cellW, cellH);
          if (code) found.push(code.data);
        }
    }
    return found;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A binary PGM (P5) as pdftoppm -gray writes it. */
function readPgm(data: Buffer) {
  const header: string[] = [];
  let i = 0;
  while (header.length < 4) {
    while (/\s/.test(String.fromCharCode(data[i]))) i++;
    let token = "";
    while (!/\s/.test(String.fromCharCode(data[i]))) token += String.fromCharCode(data[i++]);
    header.push(token);
  }
  i++;
  expect(header[0]).toBe("P5");
  return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(i) };
}

async function setup(features = ["qr_code"], role: "admin" | "viewer" = "admin") {
  const org = await createOrganization({ name: "Label Co", features });
  const user = await createUser(org.id, { role, locale: "en" });
  const a = await createStorage(org.id, { name: "North yard" });
  const b = await createStorage(org.id, { name: "South yard" });
  const m = await createMeasurement(org.id, a.id);
  return { org, user, a, b, m, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

describe.skipIf(!hasPoppler())("QR labels", () => {
  it("prints a label per record whose QR code opens its public page, making the links it lacks", async () => {
    const s = await setup();
    await db().deleteFrom("public_links").where("organization_id", "=", s.org.id).execute();
    const res = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: {
        report_type: "qr_labels_pdf",
        storage_ids: [s.a.id, s.b.id],
        measurement_ids: [s.m.id],
        label_size: "a4_3x8",
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const storageTokens = await publicTokensOf(db(), { organizationId: s.org.id }, "storage");
    const measurementTokens = await publicTokensOf(db(), { organizationId: s.org.id }, "measurement");
    expect([storageTokens.size, measurementTokens.size]).toEqual([2, 1]);
    const row = await waitForExport(res.data.id, 150_000);
    expect([row.status, row.status_detail]).toEqual([1, null]);
    const pdf = (await download(res.data.id, { cookie: s.cookie })).body;
    const { text, pages } = readPdf(pdf);
    expect(pages).toBe(1);
    expect(text).toContain("North yard");
    expect(text).toContain("South yard");
    // A small label wraps its name; the measurement's label reads "Measurement #id".
    expect(text.replace(/\s+/g, " ")).toMatch(new RegExp(`Measurement .*#${s.m.id}`));
    const origin = env().APP_URL;
    const expected = [
      new URL(`/public_storage/${storageTokens.get(s.a.id)}`, origin).toString(),
      new URL(`/public_storage/${storageTokens.get(s.b.id)}`, origin).toString(),
      new URL(`/public_measurement/${measurementTokens.get(s.m.id)}`, origin).toString(),
    ];
    expect(decodeLabels(pdf, 3, 8)).toEqual(expected);

    // The opened link is the record's public page.
    const page = await api(new URL(expected[0]).pathname);
    expect(page.status).toBe(200);
    expect(String(page.data)).toContain("North yard");
  }, 180_000);

  it("the large labels: 2 × 5 on a sheet, more sheets when needed", async () => {
    const s = await setup();
    const ids = [s.a.id, s.b.id];
    for (let i = 0; i < 9; i++) ids.push((await createStorage(s.org.id, { name: `Yard ${i + 1}` })).id);
    const res = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: { report_type: "qr_labels_pdf", storage_ids: ids, label_size: "a4_2x5" },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const row = await waitForExport(res.data.id, 150_000);
    expect(row.status).toBe(1);
    const pdf = (await download(res.data.id, { cookie: s.cookie })).body;
    expect(readPdf(pdf).pages).toBe(2);
    const tokens = await publicTokensOf(db(), { organizationId: s.org.id }, "storage");
    expect(decodeLabels(pdf, 2, 5)).toEqual(
      ids.map((id) => new URL(`/public_storage/${tokens.get(id)}`, env().APP_URL).toString()),
    );
  }, 180_000);

  it("needs the qr_code feature, a sharer for missing links, and the organisation's own records", async () => {
    const none = await setup([]);
    const body = { report_type: "qr_labels_pdf", storage_ids: [none.a.id], label_size: "a4_3x8" };
    const refused = await api("/api/web_app/pdf_exports", { token: none.token, json: body });
    expect(refused.status).toBe(422);
    expect(refused.data).toMatchObject({ error: "feature_unavailable", feature: "qr_code" });
    const screen = await api("/qr_labels", { cookie: none.cookie });
    expect(String(screen.data)).toContain('data-testid="billing-warning"');
    expect(String(screen.data)).not.toContain("qr-labels-form");

    const s = await setup();
    const bad = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: { report_type: "qr_labels_pdf", label_size: "huge" },
    });
    expect(bad.status).toBe(422);
    expect(bad.data.errors).toMatchObject({ label_size: ["exports:errors.labelSize"] });
    const nothing = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: { report_type: "qr_labels_pdf", storage_ids: [], label_size: "a4_3x8" },
    });
    expect(nothing.status).toBe(422);
    expect(nothing.data.errors).toMatchObject({ storage_ids: ["exports:errors.noLabels"] });
    const foreign = await api("/api/web_app/pdf_exports", {
      token: s.token,
      json: { report_type: "qr_labels_pdf", storage_ids: [none.a.id], label_size: "a4_3x8" },
    });
    expect(foreign.status).toBe(404);

    // A viewer may print labels of shared records, not make links.
    const viewer = await createUser(s.org.id, { role: "viewer" });
    await db().deleteFrom("public_links").where("organization_id", "=", s.org.id).execute();
    const noShare = await api("/api/web_app/pdf_exports", {
      token: await apiToken(viewer.id),
      json: { report_type: "qr_labels_pdf", storage_ids: [s.a.id], label_size: "a4_3x8" },
    });
    expect(noShare.status).toBe(403);
    expect(noShare.data.error).toBe("share_required");
    expect(
      await db().selectFrom("public_links").select("id").where("organization_id", "=", s.org.id).execute(),
    ).toEqual([]);
    expect(await db().selectFrom("exports").select("id").execute()).toHaveLength(0);
  });

  it("the screen works without JavaScript: field errors keep the values, a valid form makes the export", async () => {
    const s = await setup();
    const bad = await api("/qr_labels?_data=routes%2F_app%2B%2Fqr_labels", {
      cookie: s.cookie,
      form: { measurement_ids: "abc", label_size: "a4_3x8" },
    });
    expect(bad.status).toBe(422);
    const ok = await api("/qr_labels", {
      cookie: s.cookie,
      form: { storage_ids: String(s.a.id), measurement_ids: `${s.m.id}`, label_size: "a4_2x5" },
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/exports");
    const [row] = await db().selectFrom("exports").selectAll().execute();
    expect([row.report_type, row.kind]).toEqual(["qr_labels_pdf", "pdf"]);
    expect(row.params).toMatchObject({ storage_ids: [s.a.id], measurement_ids: [s.m.id], label_size: "a4_2x5" });
  });
});
