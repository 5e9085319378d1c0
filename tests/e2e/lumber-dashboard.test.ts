import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLumberMeasurement, createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { formatVolume } from "~/domain/format";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const m3 = (v: number) => formatVolume(v, { precision: 2, unit: "m^3", locale: "en-GB" });
const cellText = (page: Page, testId: string) => page.getByTestId(testId).innerText();

describe("the lumber dashboard in the browser", () => {
  it("filters, expands a storage, opens a measurement, deletes one and finds it on the deleted page", async () => {
    const org = await createOrganization({ name: "Plank Mill" });
    const user = await createUser(org.id, { role: "admin" });
    const kiln = await createStorage(org.id, { name: "Kiln yard" });
    const dock = await createStorage(org.id, { name: "Dock" });
    const empty = await createStorage(org.id, { name: "Empty shed" });
    const board = { name: "Board 150x50", plank_length: 4200, plank_width: 150, plank_height: 50 };
    const a = await createLumberMeasurement(org.id, kiln.id, { seed: 3, product: board, maxPlanks: 12 });
    const b = await createLumberMeasurement(org.id, kiln.id, {
      seed: 4,
      productId: a.productId,
      maxPlanks: 8,
      takenAt: new Date(Date.now() - 3600_000),
    });
    const c = await createLumberMeasurement(org.id, dock.id, {
      seed: 5,
      product: { name: "Batten 100x25", plank_length: 3000, plank_width: 100, plank_height: 25 },
      maxPlanks: 6,
    });

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await gotoHydrated(page, "/measurements/lumber");
    expect(await cellText(page, `storage-${kiln.id}-planks`)).toBe(String(a.plankCount + b.plankCount));
    expect(await cellText(page, `storage-${kiln.id}-volume`)).toBe(m3(a.volume + b.volume));
    expect(await cellText(page, `storage-${dock.id}-planks`)).toBe(String(c.plankCount));
    // Opening the dashboard remembers the lumber mode.
    await expect
      .poll(
        async () =>
          (
            await db()
              .selectFrom("users")
              .select("recent_measurement_mode")
              .where("id", "=", user.id)
              .executeTakeFirstOrThrow()
          ).recent_measurement_mode,
        { timeout: 10_000 },
      )
      .toBe("lumber");

    // Hide the empty storage, then show it again.
    await page.getByTestId("toggle-empty").click();
    await expect.poll(() => page.getByTestId(`storage-${empty.id}`).count()).toBe(0);
    await page.getByTestId("toggle-empty").click();
    await expect.poll(() => page.getByTestId(`storage-${empty.id}`).count()).toBe(1);

    // Filter by the batten product: only the dock's package counts.
    await page.getByTestId("toggle-filters").click();
    await page.getByTestId("multi-lumber_product_ids").locator("summary").click();
    await page.getByTestId("multi-lumber_product_ids").locator(`input[value="${c.productId}"]`).check();
    await page.getByTestId("apply-filters").click();
    await expect.poll(() => cellText(page, `storage-${kiln.id}-planks`)).toBe("0");
    expect(await cellText(page, `storage-${dock.id}-planks`)).toBe(String(c.plankCount));
    expect(page.url()).toContain(`lumber_product_ids=${c.productId}`);

    // Back to everything; expand the kiln yard: newest first, with product and plank length.
    await gotoHydrated(page, "/measurements/lumber");
    await page.getByTestId(`expand-${kiln.id}`).click();
    await page.getByTestId(`measurement-${a.id}`).waitFor();
    const cards = page.getByTestId("measurements-list").locator("li.measurement-card");
    expect(await cards.count()).toBe(2);
    expect(await cards.first().getAttribute("data-testid")).toBe(`measurement-${a.id}`);
    expect(await cellText(page, `measurement-${a.id}-product`)).toContain("Board 150x50");
    expect(await cellText(page, `measurement-${a.id}-planks`)).toBe(`${a.plankCount} planks · plank length 4,200 mm`);
    expect(await cellText(page, `measurement-${a.id}-volume`)).toBe(m3(a.volume));

    // Open one: its detail page.
    await page.getByTestId(`measurement-${b.id}`).getByRole("link").click();
    await page.waitForURL(`**/measurements/lumber/${b.id}`);
    await page.getByTestId("detail-planks").waitFor();
    expect(await cellText(page, "detail-planks")).toBe(String(b.plankCount));
    await page.goBack();
    await page.getByTestId(`measurement-${a.id}`).waitFor();

    // Delete one behind the browser's confirmation.
    await page.getByTestId(`delete-${a.id}`).click();
    await expect.poll(() => page.getByTestId(`measurement-${a.id}`).count(), { timeout: 10_000 }).toBe(0);
    expect(dialogs).toEqual([`Delete lumber measurement #${a.id}? It moves to the deleted measurements.`]);
    await expect.poll(() => cellText(page, `storage-${kiln.id}-planks`)).toBe(String(b.plankCount));
    const row = await db()
      .selectFrom("lumber_measurements")
      .select("deleted_at")
      .where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();

    // The deleted page lists it beside the timber ones.
    await gotoHydrated(page, "/measurements/timber/deleted#lumber");
    await page.getByTestId(`deleted-lumber-${a.id}`).waitFor();
    expect(await page.getByTestId(`deleted-lumber-${b.id}`).count()).toBe(0);
    expect(await cellText(page, "deleted-lumber-total")).toBe(
      new Intl.NumberFormat("en-GB", { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(a.volume),
    );
    await context.close();
  });

  it("says so when the organisation has no storage", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/lumber");
    await page.getByText("No storages yet").waitFor();
    expect(await page.getByRole("link", { name: "New storage" }).count()).toBeGreaterThan(0);
    await context.close();
  });
});
