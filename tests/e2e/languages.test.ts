import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { baseUrl } from "#tests/helpers/http";
import { SUPPORTED_LANGUAGES } from "~/i18n";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

const read = (lng: string, ns: string) => JSON.parse(fs.readFileSync(`locales/${lng}/${ns}.json`, "utf8"));

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the shell in every language", () => {
  it("follows the account's locale, in all 14 languages, after hydration too", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && !m.text().includes("/realtime") && errors.push(m.text()));
    for (const lng of SUPPORTED_LANGUAGES) {
      await db().updateTable("users").set({ locale: lng }).where("id", "=", user.id).execute();
      await gotoHydrated(page, "/measurements/container");
      const shell = read(lng, "shell");
      expect(await page.locator("html").getAttribute("lang")).toBe(lng);
      // Wait for hydration: the browser's i18next must show the same words the server rendered.
      await page.waitForFunction(
        () => (window as unknown as { __remixContext?: unknown }).__remixContext !== undefined,
      );
      await expect.poll(() => page.getByTestId("nav-/measurements/truck").textContent()).toBe(shell.nav.modes.truck);
      expect(await page.locator(".page-title").textContent()).toBe(read(lng, "containers").title);
      expect(await page.getByTestId("nav-/devices").textContent()).toBe(shell.nav.admin.devices);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the login page's language picker switches the page language and remembers it", async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await gotoHydrated(page, "/login");
    // The picker submits on change once the page has hydrated (its strings load first).
    await page.waitForLoadState("networkidle");
    await page.locator("select#lng").selectOption("et");
    await page.waitForURL("**/login?**lng=et");
    const et = read("et", "auth");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(et.login.title);
    await gotoHydrated(page, "/login");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(et.login.title);
    await context.close();
  });
});
