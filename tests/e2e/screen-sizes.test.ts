import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMeasuredStack, createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import type { Browser, Page } from "playwright-core";

// The main timber screens at laptop, tablet (1024 x 768) and phone (390 x 844) sizes: nothing
// wider than the window, the sidebar a full list, an icon rail or a closed drawer, the detail
// page's toolbar clear of the photo, the bulk bar in view. Boxes are compared, not pixels; set
// SHOTS_DIR to keep a screenshot of each screen and size.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SIZES = [
  { name: "laptop", width: 1280, height: 800, sidebar: "list" },
  { name: "tablet", width: 1024, height: 768, sidebar: "rail" },
  { name: "phone", width: 390, height: 844, sidebar: "drawer" },
] as const;

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function open(userId: number, size: (typeof SIZES)[number], path: string) {
  const context = await signedInContext(browser, userId);
  const page = await context.newPage();
  await page.setViewportSize({ width: size.width, height: size.height });
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  // The bulk bar counts the selection only once React runs; a tick before that is a plain form post.
  await gotoHydrated(page, path);
  return { context, page };
}

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: true });
}

async function expectNoHorizontalOverflow(page: Page) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(inner + 1);
}

async function expectSidebar(page: Page, kind: (typeof SIZES)[number]["sidebar"]) {
  const box = (await page.locator("nav.sidebar").boundingBox())!;
  if (kind === "list") expect(box.width).toBeGreaterThan(180);
  if (kind === "rail") {
    expect(box.width).toBeLessThanOrEqual(80);
    expect(box.x).toBeGreaterThanOrEqual(0);
    // Labels stay for screen readers and tooltips, not on screen.
    expect(await page.locator("nav.sidebar .nav-link").first().getAttribute("title")).toBeTruthy();
  }
  if (kind === "drawer") expect(box.x + box.width).toBeLessThanOrEqual(1);
}

describe("timber screens at laptop, tablet and phone sizes", () => {
  // One test per size: each walks five screens, and the three together outgrew one test's time
  // on a loaded machine.
  it.each(SIZES)(
    "keep their layout at $name size: sidebar, toolbar clear of the photo, bulk bar in view, nothing too wide",
    async (size) => {
      // Each test starts from an empty database (tests/setup/integration.ts), so each makes its rows.
      const org = await createOrganization({ name: "Sizes Org" });
      await givePlan(org.id);
      const user = await createUser(org.id, { role: "admin" });
      const storage = await createStorage(org.id, { name: "Riverside landing" });
      for (let i = 0; i < 6; i++) await createMeasuredStack(org.id, storage.id, { seed: 10 + i, photo: false });
      // The newest, so first on the storage's list.
      const m = await createMeasuredStack(org.id, storage.id, { seed: 3, takenAt: new Date(Date.now() + 60_000) });
      const [userId, storageId, measurementId] = [user.id, storage.id, m.id];

      const dash = await open(userId, size, `/measurements/timber?open=${storageId}`);
      await dash.page.getByTestId(`measurement-${measurementId}`).waitFor();
      await expectNoHorizontalOverflow(dash.page);
      await expectSidebar(dash.page, size.sidebar);
      await dash.page.getByTestId(`select-${measurementId}`).check();
      const bar = dash.page.getByTestId("bulk-bar");
      await bar.waitFor();
      expect(await bar.innerText()).toContain("1 selected");
      // Scrolled back to the top of the list, the sticky bar is still on screen.
      await dash.page.getByTestId(`measurement-${measurementId}`).scrollIntoViewIfNeeded();
      const barBox = (await bar.boundingBox())!;
      expect(barBox.y + barBox.height).toBeLessThanOrEqual(size.height + 1);
      expect(barBox.y).toBeGreaterThanOrEqual(0);
      await shot(dash.page, `dashboard-${size.name}`);
      await dash.context.close();

      const detail = await open(userId, size, `/measurements/timber/${measurementId}`);
      await detail.page.getByTestId("measurement-photo").waitFor();
      await expectNoHorizontalOverflow(detail.page);
      await expectSidebar(detail.page, size.sidebar);
      const toolbar = (await detail.page.locator(".measurement-detail .page-actions").boundingBox())!;
      const photo = (await detail.page.getByTestId("measurement-photo").boundingBox())!;
      expect(overlaps(toolbar, photo), JSON.stringify({ toolbar, photo })).toBe(false);
      expect(photo.y - (toolbar.y + toolbar.height)).toBeGreaterThanOrEqual(4);
      await shot(detail.page, `detail-${size.name}`);
      await detail.context.close();

      // The other list screens a user reaches from the sidebar: nothing wider than the window.
      for (const path of ["/storages", "/exports", "/measurements/timber/deleted"]) {
        const other = await open(userId, size, path);
        await other.page.locator("h1").first().waitFor();
        await expectNoHorizontalOverflow(other.page);
        await other.context.close();
      }
    },
  );
});
