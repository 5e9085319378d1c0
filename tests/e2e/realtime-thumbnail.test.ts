import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutStack, renderStackJpeg } from "#db/seed/stack-photo";
import { createMeasurement, createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { fileStorage } from "~/services/file-storage.server";
import { addJob, enqueuePhotoJob } from "~/services/jobs.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("realtime from the worker to an open page", () => {
  it("a thumbnail the worker makes appears on the timber page without a reload", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id, { name: "Riverside landing" });
    const m = await createMeasurement(org.id, storage.id);
    const stack = layoutStack(11, { width: 1000, height: 750 });
    await storeOriginalPhoto(db(), fileStorage(), "timber", {
      organizationId: org.id,
      measurementId: m.id,
      data: await renderStackJpeg(stack, 11),
      fileName: "s.jpg",
    });

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    // The page subscribes to the organisation's channel once it has loaded.
    const subscribed = page.waitForResponse((r) => r.url().includes(`/realtime?channel=organization%3A${org.id}`));
    // The dashboard lists a storage's measurements once its row is expanded.
    await gotoHydrated(page, `/measurements/timber?open=${storage.id}`);
    await subscribed;
    const row = page.getByTestId(`measurement-${m.id}`);
    expect(await row.getByTestId("thumb-pending").count()).toBe(1);

    // A marker that a reload would wipe out.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await enqueuePhotoJob(m.id, addJob);
    const img = row.locator("img.thumb");
    await img.waitFor({ state: "visible", timeout: 20_000 });
    expect(await img.getAttribute("src")).toBe(`/files/measurements/${m.id}/thumbnail`);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(160);
    // It arrived live: the page was never reloaded.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await context.close();
  });
});
