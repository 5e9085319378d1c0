import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDevice,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createTruckRoute,
  createUser,
} from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { api } from "#tests/helpers/http";
import { insertTruckDiameterMeasurement } from "~/models/shipment.server";
import { fileStorage } from "~/services/file-storage.server";
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

describe("trucks in the browser", () => {
  it("edits a load and sees the truck's volume change", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "measurer" });
    const storage = await createStorage(org.id, { name: "Mill gate" });
    const m = await createTruckMeasurement(org.id, storage.id, { plate: "EDIT-1" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/truck/${m.id}`);
    // 12.24 + 10.08 = 22.32 m³.
    expect(await page.getByTestId("truck-volume").textContent()).toMatch(/22[.,]32/);
    await page.getByTestId("load-0-height").fill("3");
    await page.getByTestId("save-loads").click();
    // 3 x 2.4 x 3 x 0.68 = 14.688; + 10.08 = 24.768 m³.
    await expect.poll(() => page.getByTestId("truck-volume").textContent(), { timeout: 10_000 }).toMatch(/24[.,]77/);
    expect(await page.getByTestId("load-0-volume").textContent()).toMatch(/14[.,]69/);
    await context.close();
  });

  it("opens the photo editor from the truck detail (no shipments flag) and saves a formula", async () => {
    const org = await createOrganization({ cmpc_enabled: false });
    const user = await createUser(org.id, { role: "measurer" });
    const storage = await createStorage(org.id, { name: "Mill gate" });
    const m = await createTruckMeasurement(org.id, storage.id, { plate: "PHOTO-1" });
    const { layoutStack, renderStackJpeg } = await import("#db/seed/stack-photo");
    await storeOriginalPhoto(db(), fileStorage(), "truck", {
      organizationId: org.id,
      measurementId: m.id,
      data: await renderStackJpeg(layoutStack(3, { width: 800, height: 600 }), 3),
      fileName: "truck.jpg",
    });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/truck/${m.id}`);
    await page.getByTestId("open-editor").click();
    await page.waitForURL(`**/measurements/truck/${m.id}/edit`);
    await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor({ timeout: 15_000 });
    await page.getByTestId("editor-formula").selectOption("jas");
    await page.getByTestId("editor-save").click();
    await expect
      .poll(
        async () =>
          (
            await db()
              .selectFrom("truck_measurements")
              .select("volume_formula")
              .where("id", "=", m.id)
              .executeTakeFirstOrThrow()
          ).volume_formula,
        { timeout: 15_000 },
      )
      .toBe("jas");
    await page.getByTestId("editor-back").click();
    await page.waitForURL(`**/measurements/truck/${m.id}`);
    await expect.poll(() => page.getByTestId("truck-formula").textContent(), { timeout: 10_000 }).toMatch(/JAS/i);
    // The loads' volume does not depend on the formula: still 22.32 m³.
    expect(await page.getByTestId("truck-volume").textContent()).toMatch(/22[.,]32/);
    await context.close();
  });

  it('lists truck-diameter measurements under the dashboard\'s "only truck-diameter" box', async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id, { name: "Mill gate" });
    await createTruckMeasurement(org.id, storage.id, { plate: "ONLY-1" });
    const id = await insertTruckDiameterMeasurement(
      db(),
      { organizationId: org.id },
      {
        storage_id: storage.id,
        taken_at: new Date("2026-11-20T08:00:00Z"),
        shipment_number: null,
        measurement_type_id: 1,
        log_length: 3,
        trailer_license_plate: "TR-DIA",
        logs: [{ x: 100, y: 100, r: 40 }],
        references: [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }],
      },
    );
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/truck");
    await page.getByTestId("toggle-filters").click();
    await page.getByTestId("only-truck").check();
    await page.getByTestId("only-truck-diameter").check();
    // The two boxes exclude each other.
    expect(await page.getByTestId("only-truck").isChecked()).toBe(false);
    await page.getByTestId("truck-filters").getByRole("button", { name: "Apply" }).click();
    await page.waitForURL("**/measurements/truck?*truck_diameter_measurements_only=true*");
    await page.getByTestId(`expand-${storage.id}`).click();
    await page.getByTestId(`truck-diameter-measurement-${id}`).waitFor();
    expect(await page.getByTestId(`truck-diameter-measurement-${id}`).textContent()).toContain("TR-DIA");
    expect(await page.getByTestId("truck-measurements").count()).toBe(0);
    await context.close();
  });

  it("moves a truck on the live map when its phone posts a checkpoint (SSE), and shows its route", async () => {
    const org = await createOrganization({ features: ["truck_detection"] });
    const user = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id, { name: "Mill gate" });
    const m = await createTruckMeasurement(org.id, storage.id, { plate: "LIVE-7" });
    const route = await createTruckRoute(org.id, m.id, { points: [[58.3, 26.7]] });
    const device = await createDevice(org.id);
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    const subscribed = page.waitForResponse((r) => r.url().includes(`/realtime?channel=organization%3A${org.id}`));
    await gotoHydrated(page, "/measurements/truck?live=1");
    await subscribed;
    const marker = page.locator(`[data-testid="truck-marker"][data-route-id="${route.id}"]`);
    await marker.waitFor({ state: "attached" });
    expect(await marker.getAttribute("data-lat")).toBe("58.3");
    const box = async () => (await page.locator(".map-marker-truck").first().boundingBox())!;
    const before = await box();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    const sent = await api(`/api/device/truck_routes/${route.id}/checkpoints`, {
      token: device.token,
      json: {
        checkpoints: [
          {
            client_id: "moved",
            latitude: 58.31,
            longitude: 26.75,
            recorded_at: new Date(route.startedAt.getTime() + 30 * 60_000).toISOString(),
          },
        ],
      },
    });
    expect(sent.status).toBe(200);
    await expect.poll(() => marker.getAttribute("data-lat"), { timeout: 10_000 }).toBe("58.31");
    await expect
      .poll(() => page.getByTestId(`active-route-${route.id}`).getByTestId("route-position").textContent())
      .toContain("58.31000");
    // The marker moved on the map, and the page was never reloaded.
    const after = await box();
    expect(Math.abs(after.x - before.x) + Math.abs(after.y - before.y)).toBeGreaterThan(1);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

    // Select it, show its whole path, deselect.
    await page.getByTestId(`select-route-${route.id}`).click();
    expect(await page.getByTestId("selected-route").textContent()).toContain("LIVE-7");
    await page.getByTestId("show-route").click();
    await page.locator("path.leaflet-interactive").first().waitFor({ state: "attached" });
    await page.getByTestId("deselect").click();
    expect(await page.getByTestId("selected-route").count()).toBe(0);
    await context.close();
  });
});
