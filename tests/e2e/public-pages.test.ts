import fs from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  givePlan,
  sharePublicly,
} from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { baseUrl } from "#tests/helpers/http";
import { formatVolume } from "~/domain/format";
import { fileStorage } from "~/services/file-storage.server";
import { makeRenditions } from "~/services/photos.server";
import { db } from "~/utils/db.server";
import type { Browser, BrowserContext, Page } from "playwright-core";

// The public pages as a recipient opens them: signed out, on a phone (390 x 844). Each page
// loads (not the sign-in page), fits the screen and shows the record; the picture downloads and
// differs from the plain photo exactly where the logs are drawn; an unknown link is the
// not-found page; paging shows the loading state. Then the owner's side: the detail page's
// dialog and the dashboard's menu copy the whole link and say "Copied" for 2 seconds.
// Set SHOTS_DIR to keep a screenshot of each page.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

async function phone(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: PHONE, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    // The not-found page is a 404 answer, which the browser reports as a failed resource.
    if (m.type() === "error" && !m.text().includes("404")) errors.push(m.text());
  });
  return { context, page, errors };
}

async function expectFitsTheScreen(page: Page) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(inner + 1);
}

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: true });
}

async function rgbOf(image: Buffer) {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * 3;
    return [data[i], data[i + 1], data[i + 2]];
  };
}

const distance = (a: number[], b: number[]) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);

async function sharedWorld(opts: { vmu?: boolean } = {}) {
  const org = await createOrganization({ name: opts.vmu ? "Metrology Forest OÜ" : "Public Forest OÜ" });
  await db().updateTable("organizations").set({ vmu_enabled: !!opts.vmu }).where("id", "=", org.id).execute();
  await givePlan(org.id);
  const admin = await createUser(org.id, { role: "admin" });
  const storage = await createStorage(org.id, { name: "Riverside landing" });
  for (let i = 0; i < 3; i++)
    await createMeasuredStack(org.id, storage.id, {
      seed: 40 + i,
      photo: false,
      takenAt: new Date(Date.now() - (i + 1) * 86_400_000),
    });
  const m = await createMeasuredStack(org.id, storage.id, { seed: 5, lengthM: 4 });
  await db()
    .updateTable("measurements")
    .set({
      metrology: JSON.stringify({
        angle_validation: { angle: 4.5, status: 1 },
        interference: { score: 0.1, status: 1 },
        brightness: { score: 0.62, status: 1 },
        is_valid: true,
      }),
    })
    .where("id", "=", m.id)
    .execute();
  await makeRenditions(db(), fileStorage(), "timber", m.id);
  const measurementLink = await sharePublicly(org.id, "measurement", m.id);
  const storageLink = await sharePublicly(org.id, "storage", storage.id);
  return { org, admin, storage, m, measurementLink, storageLink };
}

describe("public pages on a phone, signed out", () => {
  it("the measurement page shows the photo with every log and the figures, and its picture downloads with the overlay burnt in", async () => {
    const w = await sharedWorld();
    const { context, page, errors } = await phone();
    const response = await gotoHydrated(page, w.measurementLink.path);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(w.measurementLink.path);
    const img = page.getByTestId("measurement-photo").locator("img");
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 10_000 })
      .toBe(1000);
    expect(await page.getByTestId("overlay-log").count()).toBe(w.m.logsCount);
    expect(await page.getByTestId("public-volume").innerText()).toBe(
      formatVolume(w.m.volume, { precision: 3, unit: "m^3", locale: "en-GB" }),
    );
    expect(await page.getByTestId("public-logs").innerText()).toBe(String(w.m.logsCount));
    expect(await page.getByTestId("public-storage").innerText()).toBe("Riverside landing");
    expect(await page.getByTestId("shared-by").innerText()).toBe("Shared by Public Forest OÜ");
    expect(await page.getByTestId("logs-sheet").isVisible()).toBe(true);
    expect(await page.getByTestId("metrology").count()).toBe(0);
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex, nofollow");
    // The photo takes the phone's width, the figures two by two.
    const photoBox = (await page.getByTestId("measurement-photo").boundingBox())!;
    expect(photoBox.width).toBeGreaterThan(PHONE.width - 40);
    await expectFitsTheScreen(page);
    await shot(page, "public-measurement-phone");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-jpeg").click()]);
    expect(download.suggestedFilename()).toBe(`measurement-${w.m.id}.jpeg`);
    const picture = fs.readFileSync((await download.path())!);
    const meta = await sharp(picture).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.width).toBe(1000);
    expect(meta.height).toBeGreaterThan(750 + 40);

    // Against the photo the page draws on: on the logs' rims it is green (or red), elsewhere the same.
    const plain = await rgbOf(
      Buffer.from(await (await page.request.get(`/public_measurement/${w.measurementLink.token}/photo`)).body()),
    );
    const burnt = await rgbOf(picture);
    const logs = (await (await page.request.get(`/api/web_app/measurements/public/${w.measurementLink.token}`)).json())
      .data.logs as Array<{ x: number; y: number; r: number }>;
    let rim = 0;
    let rimSamples = 0;
    for (const l of logs.slice(0, 12)) {
      for (let k = 0; k < 16; k++) {
        const a = (k / 16) * 2 * Math.PI;
        // The greenest pixel across the rim's stroke (a few pixels wide, softened by JPEG).
        const across = [-1.5, -0.5, 0.5, 1.5].map((dr) => {
          const x = l.x + (l.r + dr) * Math.cos(a);
          const y = l.y + (l.r + dr) * Math.sin(a);
          return { x, y, p: burnt(x, y) };
        });
        const best = across.reduce((m, c) => (c.p[1] - c.p[0] > m.p[1] - m.p[0] ? c : m));
        if (best.x < 2 || best.y < 2 || best.x > 997 || best.y > 747) continue;
        rim += distance(best.p, plain(best.x, best.y));
        rimSamples++;
        expect(best.p[1], `rim at ${best.x},${best.y} is green: ${best.p}`).toBeGreaterThan(best.p[0] + 40);
      }
    }
    const far: Array<[number, number]> = [];
    for (let y = 5; y < 745 && far.length < 200; y += 13)
      for (let x = 5; x < 995 && far.length < 200; x += 17)
        if (logs.every((l) => Math.hypot(l.x - x, l.y - y) > l.r + 12)) far.push([x, y]);
    expect(far.length).toBeGreaterThan(20);
    const away = far.reduce((s, [x, y]) => s + distance(burnt(x, y), plain(x, y)), 0) / far.length;
    expect(rim / rimSamples).toBeGreaterThan(80);
    expect(away).toBeLessThan(25);
    // The caption band is dark under the photo.
    const band = burnt(4, 750 + 4);
    expect(band[0] + band[1] + band[2]).toBeLessThan(120);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the metrology form /vmu_public shows the checks with their values", async () => {
    const w = await sharedWorld({ vmu: true });
    expect(w.measurementLink.path).toMatch(/^\/vmu_public\//);
    const { context, page, errors } = await phone();
    expect((await gotoHydrated(page, w.measurementLink.path))?.status()).toBe(200);
    const metrology = page.getByTestId("metrology");
    await metrology.waitFor();
    expect(await page.getByTestId("metrology-angle_validation").innerText()).toContain("4.5°");
    expect(await page.getByTestId("metrology-brightness").innerText()).toContain("0.62");
    expect(await page.getByTestId("metrology-valid").innerText()).toContain("Yes");
    await expectFitsTheScreen(page);
    await shot(page, "public-vmu-phone");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the storage page lists its measurements with thumbnails, links the shared one, pages with a loading state and speaks the chosen language", async () => {
    const w = await sharedWorld();
    for (let i = 0; i < 20; i++)
      await createMeasuredStack(w.org.id, w.storage.id, {
        seed: 60 + i,
        photo: false,
        takenAt: new Date(Date.now() - (10 + i) * 86_400_000),
      });
    const { context, page, errors } = await phone();
    expect((await gotoHydrated(page, w.storageLink.path))?.status()).toBe(200);
    expect(await page.getByTestId("public-title").innerText()).toBe("Riverside landing");
    expect(await page.getByTestId("public-measurements-count").innerText()).toBe("24");
    const thumb = page.getByTestId(`public-measurement-${w.m.id}`).locator("img");
    await expect
      .poll(() => thumb.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 10_000 })
      .toBe(160);
    await expectFitsTheScreen(page);
    await shot(page, "public-storage-phone");

    // The next page loads through the app: the loading state shows until its data arrives.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/_data=/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId("next-page").click();
    await page.getByTestId("public-loading").waitFor();
    release();
    await page.getByTestId("public-loading").waitFor({ state: "detached" });
    expect(await page.getByText("Page 2 of 2").isVisible()).toBe(true);
    await page.unroute(/_data=/);

    // Back on page 1, the shared measurement opens its own page.
    await gotoHydrated(page, w.storageLink.path);
    await page.getByTestId(`public-link-${w.m.id}`).click();
    await page.waitForURL(`**${w.measurementLink.path}`);
    await page.getByTestId("public-measurement").waitFor();

    // Another language from the menu.
    await gotoHydrated(page, w.storageLink.path);
    await page.locator("#public-lng").selectOption("et");
    await page.waitForURL(/lng=et/);
    await expect.poll(() => page.getByTestId("shared-by").innerText()).toBe("Jagas Public Forest OÜ");
    await expectFitsTheScreen(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an unknown or rotated link is the not-found page, not the sign-in page", async () => {
    const w = await sharedWorld();
    const { context, page } = await phone();
    for (const path of [
      `/public_measurement/${"Z".repeat(32)}`,
      `/public_storage/nope`,
      `/vmu_public/${w.measurementLink.token}`,
    ]) {
      const response = await gotoHydrated(page, path);
      expect(response?.status(), path).toBe(404);
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await page.getByTestId("not-found").innerText()).toContain("This link does not open anything");
      await expectFitsTheScreen(page);
    }
    await shot(page, "public-not-found-phone");
    await context.close();
  });
});

describe("the owner's public links", () => {
  it("the detail page's dialog copies the whole link and says Copied for 2 seconds; the dashboard menu copies the storage's", async () => {
    const w = await sharedWorld();
    const context = await signedInContext(browser, w.admin.id);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/timber/${w.m.id}`);
    await page.getByTestId("open-public-link-dialog").click();
    const url = `${baseUrl()}${w.measurementLink.path}`;
    expect(await page.getByTestId("public-link").inputValue()).toBe(url);
    await shot(page, "detail-public-link-dialog");
    const copy = page.getByTestId("copy-link");
    await copy.click();
    await expect.poll(() => copy.innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const copiedAt = Date.now();
    await expect.poll(() => copy.innerText(), { timeout: 5000 }).toBe("Copy link");
    expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(1500);

    // A new link: the dialog shows it, the old one no longer opens.
    page.once("dialog", (d) => d.accept());
    await page.getByTestId("rotate-public-link").click();
    await expect.poll(() => page.getByTestId("public-link").inputValue()).not.toBe(url);
    const fresh = await page.getByTestId("public-link").inputValue();
    expect((await page.request.get(url)).status()).toBe(404);
    expect((await page.request.get(fresh)).status()).toBe(200);

    // The dashboard's row menu.
    await gotoHydrated(page, "/measurements/timber");
    await page.getByTestId(`storage-menu-${w.storage.id}`).locator("summary").click();
    const menuCopy = page.getByTestId(`copy-link-${w.storage.id}`);
    await menuCopy.click();
    await expect.poll(() => menuCopy.innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl()}${w.storageLink.path}`);
    await context.close();
  });
});
