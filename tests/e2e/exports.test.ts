import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMeasuredStack, createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { readXlsx } from "#tests/helpers/exports";
import { roundHalfUp } from "~/domain";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("exports in the browser", () => {
  it("the export button asks for a file, the live notice says it is ready, and the file downloads", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "measurer" });
    await db().updateTable("users").set({ rounding_precision: 2 }).where("id", "=", user.id).execute();
    const storage = await createStorage(org.id, { name: "Lakeside landing" });
    const m = await createMeasuredStack(org.id, storage.id, { seed: 61, photo: false });
    // Outside the chosen period: not exported.
    await createMeasuredStack(org.id, storage.id, {
      seed: 62,
      photo: false,
      takenAt: new Date(Date.now() - 40 * 86_400_000),
    });

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    const subscribed = page.waitForResponse((r) => r.url().includes(`/realtime?channel=user%3A${user.id}`));
    await gotoHydrated(page, "/exports");
    await subscribed;
    await expect.poll(() => page.getByTestId("empty-state").count(), { timeout: 10_000 }).toBe(1);

    await page.locator("details.exports-new summary").click();
    await page.locator('input[name="taken_at_start"]').fill(day(-7));
    await page.locator('input[name="taken_at_end"]').fill(day(1));
    await page.getByTestId("export-button-dashboard_excel").getByRole("button").click();

    // The spec's info toast, then the live notice once the worker has made the file.
    await page.getByTestId("toast").filter({ hasText: "being prepared" }).waitFor({ timeout: 10_000 });
    const notice = page.locator('[data-testid="export-notice"][data-status="1"]');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain("ready");

    const [file] = await Promise.all([
      page.waitForEvent("download"),
      notice.getByTestId("export-notice-download").click(),
    ]);
    const wb = await readXlsx(Buffer.from(await (await import("node:fs/promises")).readFile((await file.path())!)));
    const sheet = wb.getWorksheet("Measurements")!;
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).value).toBe(m.id);
    expect(sheet.getRow(2).getCell(11).value).toBe(roundHalfUp(m.volume, 2));

    // The list shows it, done and tagged New.
    const row = page
      .locator('[data-testid^="export-"]')
      .filter({ has: page.getByTestId("export-status") })
      .first();
    await expect
      .poll(() => row.getByTestId("export-status").getAttribute("data-status"), { timeout: 10_000 })
      .toBe("1");
    expect(await row.getByTestId("new-tag").count()).toBe(1);

    // The notice closes itself after 15 seconds.
    await notice.waitFor({ state: "detached", timeout: 20_000 });
    await context.close();
  });

  it("without JavaScript the export form posts and comes back with the toast", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id);
    await createMeasuredStack(org.id, storage.id, { seed: 63, photo: false });
    const context = await signedInContext(browser, user.id, { javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/exports");
    await page.locator("details.exports-new summary").click();
    await page.locator('input[name="taken_at_start"]').fill(day(-1));
    await page.locator('input[name="taken_at_end"]').fill(day(1));
    await page.getByTestId("export-button-dashboard_excel").getByRole("button").click();
    await page.waitForURL("**/exports");
    expect(await page.getByTestId("toast").textContent()).toContain("being prepared");
    await expect.poll(() => page.getByTestId("exports-table").count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });
});
