import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createStorage, createUser } from "#tests/factories";
import { launchBrowser, signedInContext } from "#tests/helpers/browser";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

// README "Security" in a real browser: the Content-Security-Policy lets the app run (hydration,
// map, forms) and blocks nothing of ours; the measurement mode is remembered by the screen.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("security in the browser", () => {
  it("the main screens hydrate under the CSP without a single violation", async () => {
    const org = await createOrganization({ features: ["timber_management", "custom_fields"] });
    const user = await createUser(org.id, { role: "admin" });
    await createStorage(org.id, { name: "Landing A" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    for (const path of ["/measurements/timber", "/settings/account", "/users", "/exports", "/billing"]) {
      await page.goto(path);
      // Hydrated: React attached its handlers (a client navigation works without a reload).
      await page.waitForFunction(() => !!(window as unknown as { __remixContext?: unknown }).__remixContext);
      await page.waitForLoadState("networkidle");
    }
    await page
      .getByRole("link", { name: /Settings/i })
      .first()
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/settings/);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("landing on a mode screen remembers the mode; /measurements opens only a built one", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    const mode = async () =>
      (
        await db()
          .selectFrom("users")
          .select("recent_measurement_mode")
          .where("id", "=", user.id)
          .executeTakeFirstOrThrow()
      ).recent_measurement_mode;
    await page.goto("/measurements/container");
    await page.getByTestId("container-mode").waitFor();
    await expect.poll(mode).toBe("container");
    await page.goto("/measurements");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/measurements/container");
    // The cmpc dashboard is still a placeholder: a mode remembered there opens timber.
    await db().updateTable("users").set({ recent_measurement_mode: "cmpc" }).where("id", "=", user.id).execute();
    await page.goto("/measurements");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/measurements/timber");
    await expect.poll(mode).toBe("timber");
    await context.close();
  });
});
