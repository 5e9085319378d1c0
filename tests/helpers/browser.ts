import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createSession } from "~/models/session.server";
import { CHROMIUM_ARGS } from "~/services/pdf.server";
import { db } from "~/utils/db.server";
import { sessionCookie } from "~/utils/session.server";
import { baseUrl } from "./http";

// Debian's Chromium with the same flags the worker prints PDFs with (no sandbox as root, no
// background network calls to the outside).
export { CHROMIUM_ARGS };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

/** A context already signed in as the user: the session row is created directly, as STYLE.md says. */
export async function signedInContext(
  browser: Browser,
  userId: number,
  opts: { javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    viewport: { width: 1280, height: 800 },
  });
  const session = await createSession(db(), { userId, kind: "web", ttlSeconds: 3600 });
  const value = (await sessionCookie.serialize(session.token)).split(";")[0].split("=").slice(1).join("=");
  const url = new URL(baseUrl());
  await context.addCookies([
    { name: "__session", value, domain: url.hostname, path: "/", httpOnly: true, sameSite: "Lax" },
  ]);
  return context;
}

/**
 * Waits until the page's JavaScript has hydrated it (html[data-hydrated], set by the root once
 * React runs), so a click is handled by the app and not raced by a native form post or lost to
 * a page still loading its scripts. A page without JavaScript (the context has it off) is ready
 * as it is.
 */
export async function waitForHydration(page: Page) {
  const runsScripts = await page.evaluate(() => "__remixContext" in window);
  if (runsScripts) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** page.goto, then waitForHydration: the helper browser tests open pages with. */
export async function gotoHydrated(page: Page, url: string, options?: Parameters<Page["goto"]>[1]) {
  const response = await page.goto(url, options);
  await waitForHydration(page);
  return response;
}
