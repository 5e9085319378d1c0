import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// Billing end to end with the local provider: buy a plan on an organisation without a
// subscription, see features unlock, add a bundle, change a quantity with its preview, buy a
// picture package and see the counter rise, cancel an item.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Browser errors fail the test: a crashed render would otherwise pass unnoticed. */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return errors;
}

const locked = (page: Page, path: string) =>
  page.locator(`[data-testid="nav-${path}"] [data-testid="nav-locked"]`).count();

async function features(orgId: number) {
  return (await db().selectFrom("organizations").select("features").where("id", "=", orgId).executeTakeFirstOrThrow())
    .features;
}

describe("billing with the local provider", () => {
  it("buys a plan, unlocks features, adds a bundle, changes a quantity, buys pictures and cancels", async () => {
    const org = await createOrganization({ name: "Larch Landing" });
    const admin = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, admin.id);
    const page = await context.newPage();
    const errors = collectErrors(page);

    await gotoHydrated(page, "/billing");
    await expect.poll(() => page.getByTestId("no-subscription").isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByTestId("upgrade-button").isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByTestId("banner-noPlan").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId("remaining-measurements").textContent()).toBe("Measurements left: 0");
    expect(await locked(page, "/inventories")).toBe(1);
    expect(await locked(page, "/reports")).toBe(1);
    // Yearly is the default cycle, shown per month (1490 / 12 rounded).
    expect(await page.getByTestId("package-pro_subscription").locator(".billing-price").textContent()).toContain(
      "€124 / month",
    );

    // Buy Pro for 2 devices: checkout redirect to the local confirmation page.
    const pro = page.getByTestId("package-pro_subscription");
    await pro.getByLabel("Devices").fill("2");
    await pro.getByTestId("buy-pro_subscription").click();
    await page.waitForURL(/\/billing\/checkout\/[\w-]+$/);
    expect(await page.getByTestId("local-checkout").textContent()).toContain("Pro × 2");
    await page.getByTestId("checkout-confirm").click();
    await page.waitForURL(/\/billing$/);
    await expect.poll(() => page.getByTestId("subscription-status").textContent()).toBe("Active");
    expect(await page.getByTestId("upgrade-button").count()).toBe(0);
    expect(await page.getByTestId("banner-noPlan").count()).toBe(0);
    // The locked inventories entry opens now.
    expect(await locked(page, "/inventories")).toBe(0);
    expect(await features(org.id)).toContain("inventories");

    // Add the reports bundle: added directly, the pending-invoice dialog appears.
    await page.getByTestId("add-reports_bundle").click();
    await page.getByTestId("pending-invoice-dialog").waitFor();
    expect(await page.getByTestId("pending-invoice-dialog").textContent()).toMatch(/LOC-\d+-0002/);
    expect(await locked(page, "/reports")).toBe(0);
    await expect.poll(() => page.getByTestId("banner-pending").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId("open-invoices-badge").textContent()).toBe("1");
    await page.getByTestId("pending-pay").click();
    await page.waitForURL(/\/billing\/invoices$/);
    await expect.poll(() => page.getByTestId("open-invoices-badge").count()).toBe(0);
    expect(await page.getByTestId("invoice-status").allTextContents()).toEqual(["Paid", "Paid"]);

    // Change Pro to 3 devices: the change button is disabled until the quantity differs; the preview shows the amount due.
    await page.getByTestId("tab-overview").click();
    await page.waitForURL(/\/billing$/);
    const proCard = page.getByTestId("package-pro_subscription");
    expect(await proCard.getByTestId("preview-pro_subscription").isDisabled()).toBe(true);
    await proCard.getByLabel("Devices").fill("3");
    await proCard.getByTestId("preview-pro_subscription").click();
    const preview = page.getByTestId("preview-result-pro_subscription");
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/Amount due now for 3 devices: €1,4\d\d/);
    await page.getByTestId("confirm-pro_subscription").click();
    await page.getByTestId("pending-invoice-dialog").waitFor();
    await page.getByTestId("pending-later").click();
    await expect
      .poll(() => page.getByTestId("package-pro_subscription").getByTestId("item-quantity").textContent())
      .toBe("Devices: 3");

    // Buy 20 measurements: ?p= opens the dialog; the counter rises from nothing to 20.
    expect(await page.getByTestId("remaining-measurements").count()).toBe(0);
    await gotoHydrated(page, "/billing/measurements?p=PLAN_20");
    expect(await page.getByTestId("remaining-big").textContent()).toBe("Measurements left: 0");
    expect(await page.getByTestId("picture-dialog").textContent()).toContain("20 measurements");
    await page.getByTestId("picture-buy").click();
    await page.waitForURL(/\/billing\/checkout\/[\w-]+$/);
    await page.getByTestId("checkout-confirm").click();
    await page.waitForURL(/\/billing\/measurements$/);
    await expect.poll(() => page.getByTestId("remaining-big").textContent()).toBe("Measurements left: 20");
    // Subscribed: the header shows the status badge, not the count (the billing page has it).
    expect(await page.getByTestId("remaining-measurements").count()).toBe(0);

    // Cancel the reports bundle: cancelled until the period ends, the feature stays meanwhile.
    await page.getByTestId("tab-overview").click();
    await page.waitForURL(/\/billing$/);
    await page.getByTestId("cancel-reports_bundle").click();
    await expect
      .poll(() => page.getByTestId("package-reports_bundle").getByTestId("item-state").textContent())
      .toBe("Cancelled until the period ends");
    expect(await locked(page, "/reports")).toBe(0);
    const items = await db()
      .selectFrom("subscription_items")
      .select(["package_id", "quantity", "cancelled"])
      .where("organization_id", "=", org.id)
      .orderBy("id")
      .execute();
    expect(items).toEqual([
      { package_id: "pro_subscription", quantity: 3, cancelled: false },
      { package_id: "reports_bundle", quantity: 1, cancelled: true },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the trial dialog allows at most 3 devices and blocks the duplicate-storage bundle; banners dismiss without JavaScript", async () => {
    const org = await createOrganization({ name: "Aspen Mill" });
    const admin = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, admin.id);
    const page = await context.newPage();
    const errors = collectErrors(page);
    // The seat counter is client-side: wait for the page's scripts before typing.
    await gotoHydrated(page, "/billing", { waitUntil: "networkidle" });
    await page.getByTestId("trial-dialog").locator("summary").click();
    await page.getByTestId("trial-pro_subscription").fill("2");
    await page.getByTestId("trial-container_subscription").fill("2");
    expect(await page.getByTestId("trial-start").isDisabled()).toBe(true);
    await page.getByTestId("trial-container_subscription").fill("1");
    expect(await page.getByTestId("trial-start").isDisabled()).toBe(false);
    await page.getByTestId("trial-start").click();
    await page.waitForURL(/\/billing\/checkout\/[\w-]+$/);
    expect(await page.getByTestId("local-checkout").textContent()).toContain("Free for one month");
    await page.getByTestId("checkout-confirm").click();
    await page.waitForURL(/\/billing$/);
    await expect.poll(() => page.getByTestId("subscription-status").textContent()).toMatch(/^Trial · ends /);
    await expect.poll(() => page.getByTestId("duplicate-trial-info").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId("add-duplicate_storage_measurements_bundle").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    // A viewer-free organisation without a plan: the warning banner dismisses through a plain form.
    const other = await createOrganization({ name: "Rowan Yard" });
    const otherAdmin = await createUser(other.id, { role: "admin" });
    const noJs = await signedInContext(browser, otherAdmin.id, { javaScriptEnabled: false });
    const p2 = await noJs.newPage();
    await gotoHydrated(p2, "/measurements/timber");
    expect(await p2.getByTestId("banner-noPlan").isVisible()).toBe(true);
    await p2.getByTestId("dismiss-noPlan").click();
    await p2.waitForURL(/\/measurements\/timber$/);
    expect(await p2.getByTestId("banner-noPlan").count()).toBe(0);
    await noJs.close();
  });

  it("buys a plan and changes its quantity with the preview without JavaScript", async () => {
    const org = await createOrganization({ name: "Elm Depot" });
    const admin = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, admin.id, { javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/billing?cycle=month");
    await page.getByTestId("buy-log_counter_subscription").click();
    await page.waitForURL(/\/billing\/checkout\/[\w-]+$/);
    expect(await page.getByTestId("local-checkout").textContent()).toContain("€49.00");
    await page.getByTestId("checkout-confirm").click();
    await page.waitForURL(/\/billing$/);
    expect(await page.getByTestId("subscription-status").textContent()).toBe("Active");
    expect(await features(org.id)).toEqual(["log_counter"]);

    const card = page.getByTestId("package-log_counter_subscription");
    await card.getByLabel("Devices").fill("2");
    await card.getByTestId("preview-log_counter_subscription").click();
    const preview = page.getByTestId("preview-result-log_counter_subscription");
    expect(await preview.textContent()).toMatch(/Amount due now for 2 devices: €4\d\.\d\d/);
    await page.getByTestId("confirm-log_counter_subscription").click();
    await page.waitForURL(/\/billing\?pending=\d+$/);
    await expect.poll(() => page.getByTestId("pending-invoice-dialog").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId("package-log_counter_subscription").getByTestId("item-quantity").textContent()).toBe(
      "Devices: 2",
    );
    await context.close();
  });
});
