import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLumberMeasurement, createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { formatVolume } from "~/domain/format";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("lumber measurement detail in the browser", () => {
  it("shows the photo with one rectangle per plank and the numbers; without JavaScript, the editor note", async () => {
    const org = await createOrganization({ name: "Board Mill" });
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "Kiln yard" });
    const m = await createLumberMeasurement(org.id, storage.id, { comment: "Dried batch" });
    const volume = formatVolume(m.volume, { precision: 2, unit: "m^3", locale: "en-GB" });

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/lumber/${m.id}`);
    const photo = page.getByTestId("lumber-photo").locator("img");
    await photo.waitFor();
    // The photo really loads (the file route answers the signed-in member) and has its size.
    await expect
      .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 })
      .toBe(m.photo.width);
    await expect.poll(() => page.getByTestId("overlay-plank").count(), { timeout: 10_000 }).toBe(m.plankCount);
    expect(await page.getByTestId("plank-overlay").getAttribute("viewBox")).toBe(
      `0 0 ${m.photo.width} ${m.photo.height}`,
    );
    // The overlay lies over the picture: same box on screen.
    const [imgBox, svgBox] = await Promise.all([photo.boundingBox(), page.getByTestId("plank-overlay").boundingBox()]);
    expect(svgBox).toEqual(imgBox);
    expect(await page.getByTestId("plank-count-label").innerText()).toBe(`${m.plankCount} planks`);
    expect(await page.getByTestId("detail-planks").innerText()).toBe(String(m.plankCount));
    expect(await page.getByTestId("detail-volume").innerText()).toBe(volume);
    expect(await page.getByTestId("detail-plank-length").innerText()).toBe("4,200 mm");
    expect(await page.getByTestId("detail-comment").innerText()).toBe("Dried batch");
    expect(await page.getByTestId("open-editor").getAttribute("href")).toBe(`/measurements/lumber/${m.id}/edit`);
    expect(await page.getByTestId("editor-needs-js").count()).toBe(0);
    await context.close();

    // Without JavaScript the page is the same server render, and says the editor needs JavaScript.
    const noJs = await signedInContext(browser, user.id, { javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await gotoHydrated(plain, `/measurements/lumber/${m.id}`);
    await plain.getByTestId("editor-needs-js").waitFor();
    expect(await plain.getByTestId("editor-needs-js").innerText()).toBe("The editor needs JavaScript");
    expect(await plain.getByTestId("overlay-plank").count()).toBe(m.plankCount);
    expect(await plain.getByTestId("detail-volume").innerText()).toBe(volume);
    await noJs.close();
  });
});
