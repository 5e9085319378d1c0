import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { containerOrg, createContainerMeasurement } from "#tests/helpers/containers";
import { api, baseUrl } from "#tests/helpers/http";
import { formatVolume } from "~/domain/format";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// The public container and bill-of-lading pages as a buyer opens them, signed out, on a phone
// (390 x 844), a tablet (1024 x 768) and a laptop (1440 x 900): each loads, fits the screen (no
// sideways scrolling, also with a container opened), and shows its totals; a rotated link is the
// not-found page. Then the owner's side: the container's edit panel shows its whole link and
// replaces it. Set SHOTS_DIR to keep a screenshot of each page.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SIZES = {
  phone: { width: 390, height: 844 },
  tablet: { width: 1024, height: 768 },
  laptop: { width: 1440, height: 900 },
};
const W = "/api/web_app/containers";

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

/** A bill with two containers (one with a long name and every detail), three measurements of 0.53 m³ and 3 logs. */
async function world() {
  const a = await containerOrg();
  const bill = (await api(`${W}/bill_of_ladings`, { token: a.token, json: { name: "BL-TOKYO-2026-0042" } })).data
    .data as { id: number; token: string };
  const names = ["MSKU 100001-1 with a rather long name for a narrow phone screen", "TGHU 200002-2"];
  await api(`${W}/containers`, {
    token: a.token,
    json: { container: { bill_of_lading_id: bill.id, name: names, tare_weight: 2200, net_weight: 24500 } },
  });
  const list = (await api(`${W}/containers?bol_id=${bill.id}`, { token: a.token })).data.data as Array<{
    id: number;
    name: string;
    token: string;
  }>;
  const c1 = list.find((c) => c.name === names[0])!;
  const c2 = list.find((c) => c.name === names[1])!;
  await api(`${W}/containers/${c1.id}`, {
    token: a.token,
    method: "PATCH",
    json: { seal_number: "SEAL-778899", weight: "26 700 kg", width: "2.35", height: "2.39" },
  });
  await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1.id });
  await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c1.id });
  await createContainerMeasurement(a.org.id, a.storage.id, { containerId: c2.id });
  return { a, bill, c1, c2 };
}

describe("public container pages", () => {
  it("show the bill and the container with their totals at phone, tablet and laptop sizes, fitting the screen", async () => {
    const w = await world();
    for (const [size, viewport] of Object.entries(SIZES)) {
      const context = await browser.newContext({ baseURL: baseUrl(), viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      try {
        await gotoHydrated(page, `/public_bill_of_lading/${w.bill.token}`);
        expect(page.url()).toContain("/public_bill_of_lading/");
        await expect(page.getByTestId("public-title").textContent()).resolves.toBe("BL-TOKYO-2026-0042");
        const volume = page.getByTestId("public-volume");
        expect(await volume.isVisible()).toBe(true);
        expect(await volume.textContent()).toBe(formatVolume(1.59, { precision: 3, unit: "m^3", locale: "en" }));
        expect(await page.getByTestId("public-logs").textContent()).toBe("9");
        expect(await page.getByTestId("public-tally-volume").isVisible()).toBe(true);
        await expectFitsTheScreen(page);
        // Open the long-named container: its details and measurements, still no sideways scrolling.
        await page.locator("[data-testid=public-bill-container] summary").first().click();
        await page.getByText("SEAL-778899").waitFor();
        expect(await page.locator("[data-testid^=public-container-measurement-]:visible").count()).toBeGreaterThan(0);
        await expectFitsTheScreen(page);
        await shot(page, `public-bill-${size}`);

        await gotoHydrated(page, `/public_container/${w.c1.token}`);
        expect(await page.getByTestId("public-title").textContent()).toBe(w.c1.name);
        expect(await page.getByTestId("public-volume").textContent()).toBe(
          formatVolume(1.06, { precision: 3, unit: "m^3", locale: "en" }),
        );
        expect(await page.getByTestId("public-logs").textContent()).toBe("6");
        expect(await page.getByTestId("public-tally-logs").isVisible()).toBe(true);
        await expectFitsTheScreen(page);
        await shot(page, `public-container-${size}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it("switch language with the page's menu (loading, then the numbers in the locale's format)", async () => {
    const w = await world();
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: SIZES.phone });
    const page = await context.newPage();
    try {
      await gotoHydrated(page, `/public_bill_of_lading/${w.bill.token}`);
      await page.selectOption("#public-lng", "de");
      await page.waitForURL(/lng=de/);
      await page.getByText("Konnossement", { exact: true }).waitFor();
      expect(await page.getByTestId("public-volume").textContent()).toBe(
        formatVolume(1.59, { precision: 3, unit: "m^3", locale: "de" }),
      );
      await expectFitsTheScreen(page);
    } finally {
      await context.close();
    }
  });

  it("the owner replaces a container's link on its edit panel: the old link is the not-found page", async () => {
    const w = await world();
    const context = await signedInContext(browser, w.a.user.id);
    const page = await context.newPage();
    try {
      await gotoHydrated(page, `/measurements/container?open=${w.bill.id}&edit_container=${w.c1.id}`);
      const url = page.getByTestId("container-public-url");
      expect(await url.inputValue()).toBe(`${baseUrl()}/public_container/${w.c1.token}`);
      await page.getByTestId("rotate-container-token").click();
      await page.waitForFunction((old) => {
        const input = document.querySelector<HTMLInputElement>("[data-testid=container-public-url]");
        return input !== null && !input.value.endsWith(old);
      }, w.c1.token);
      const fresh = (await url.inputValue()).split("/public_container/")[1]!;
      const token = await db()
        .selectFrom("public_links")
        .select("rotated_at")
        .where("kind", "=", "container")
        .where("record_id", "=", w.c1.id)
        .executeTakeFirstOrThrow();
      expect(token.rotated_at).not.toBeNull();

      const visitor = await browser.newContext({ baseURL: baseUrl(), viewport: SIZES.phone });
      const vp = await visitor.newPage();
      const old = await vp.goto(`/public_container/${w.c1.token}`);
      expect(old?.status()).toBe(404);
      await vp.getByTestId("not-found").waitFor();
      await expectFitsTheScreen(vp);
      await gotoHydrated(vp, `/public_container/${fresh}`);
      expect(await vp.getByTestId("public-title").textContent()).toBe(w.c1.name);
      await visitor.close();
    } finally {
      await context.close();
    }
  });
});
