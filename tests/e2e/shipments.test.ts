import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedShipments } from "#db/seed/shipments";
import { createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the shipments dashboard in the browser", () => {
  it("expands a shipment to its route and cards, opens a truck-diameter measurement and saves an edit", async () => {
    const org = await createOrganization({ cmpc_enabled: true });
    const user = await createUser(org.id, { role: "measurer" });
    await createStorage(org.id, { name: "Mill gate" });
    // The demo seed: six shipments on real roads, with photos of the log ends.
    expect(await seedShipments(db(), fileStorage(), org.id)).toBe(6);
    const shipment = await db()
      .selectFrom("shipments")
      .select("id")
      .where("organization_id", "=", org.id)
      .where("number", "=", "CMPC-2611")
      .executeTakeFirstOrThrow();
    const measurement = await db()
      .selectFrom("truck_diameter_measurements")
      .select(["id", "volume_formula", "volume"])
      .where("shipment_id", "=", shipment.id)
      .where("measurement_type_id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(measurement.volume_formula).toBe("cylinder");

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/cmpc");
    expect(await page.getByTestId(`route-badge-${shipment.id}`).textContent()).toBe("Completed (1)");
    await page.getByTestId(`expand-shipment-${shipment.id}`).click();
    await page.getByTestId("shipment-expanded").waitFor();
    // The map is drawn 2 s after the row opens: start and end markers on the polyline.
    await page.getByTestId("shipment-map-pending").waitFor();
    await page.locator("[data-testid=shipment-route-start]").waitFor({ state: "attached", timeout: 10_000 });
    await page.locator("[data-testid=shipment-route-end]").waitFor({ state: "attached" });
    expect(await page.locator(".shipment-map-canvas path.leaflet-interactive").count()).toBe(1);
    const frame = await page.locator(".shipment-map-frame").boundingBox();
    expect(Math.round(frame!.height)).toBe(180);
    const card = page.getByTestId(`card-truck_diameter-${measurement.id}`);
    await card.waitFor();
    expect(await page.locator("[data-testid^=card-truck_diameter-]").count()).toBe(2);
    expect(await page.locator("[data-testid^=card-truck-]").count()).toBe(1);
    expect(await card.getByTestId("card-volume").textContent()).toMatch(/m³/);

    await page.getByTestId(`open-truck_diameter-${measurement.id}`).click();
    await page.waitForURL(`**/measurements/cmpc/truck_diameter/${measurement.id}`);
    await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor({ timeout: 15_000 });
    await page.getByTestId("editor-formula").selectOption("jas");
    await page.getByTestId("editor-save").click();
    await expect
      .poll(
        async () =>
          (
            await db()
              .selectFrom("truck_diameter_measurements")
              .select("volume_formula")
              .where("id", "=", measurement.id)
              .executeTakeFirstOrThrow()
          ).volume_formula,
        { timeout: 15_000 },
      )
      .toBe("jas");
    await expect.poll(() => page.getByTestId("detail-formula").textContent(), { timeout: 10_000 }).toMatch(/JAS/i);
    await context.close();
  });
});
