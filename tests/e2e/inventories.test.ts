import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMeasurement, createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext, waitForHydration } from "#tests/helpers/browser";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("inventories in the browser", () => {
  it("creates an inventory from the dashboard's row menu, confirms it, and the measurement's page is locked", async () => {
    const org = await createOrganization({ name: "Yard Co" });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin", name: "Kati Kask" });
    await db()
      .updateTable("users")
      .set({ rounding_precision: 2, volume_unit: "m^3" })
      .where("id", "=", user.id)
      .execute();
    const storage = await createStorage(org.id, { name: "North yard" });
    const day = 86400_000;
    const incoming = await createMeasurement(org.id, storage.id, {
      volume: 4,
      takenAt: new Date(Date.now() - 3 * day),
    });
    const stock = await createMeasurement(org.id, storage.id, { volume: 3.5, takenAt: new Date(Date.now() - day) });
    await db().updateTable("measurements").set({ measurement_type_id: 1 }).where("id", "=", incoming.id).execute();

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await gotoHydrated(page, `/measurements/timber?open=${storage.id}`);
    await page.getByTestId(`storage-menu-${storage.id}`).locator("summary").click();
    await page.getByTestId(`create-inventory-${storage.id}`).click();
    await page.waitForURL(/\/inventories\?open=\d+/);
    await waitForHydration(page);
    expect(dialogs[0]).toContain("Create an inventory of North yard?");
    const inventory = await db().selectFrom("inventories").selectAll().executeTakeFirstOrThrow();
    expect(inventory.confirmed_at).toBeNull();
    const row = page.getByTestId(`inventory-${inventory.id}`);
    expect(await row.innerText()).toContain("North yard");
    expect(await row.innerText()).toContain("Kati Kask");
    expect(await page.getByTestId(`inventory-${inventory.id}-inventoried`).innerText()).toBe("3.50 m³");
    expect(await page.getByTestId(`inventory-${inventory.id}-incoming`).innerText()).toBe("4.00 m³");
    // The per-item table: everything unsorted; calculated 4, diff −0.5.
    const items = await page.getByTestId("item-unsorted").innerText();
    expect(items).toContain("Unsorted");
    expect(items).toContain("-0.50 m³");

    await page.getByTestId(`confirm-${inventory.id}`).click();
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="confirm-${id}"]`)?.hasAttribute("disabled"),
      inventory.id,
    );
    expect(dialogs[1]).toContain("Confirm the inventory of North yard?");
    // For a closing note: SCREENSHOT_DIR=/tmp/x keeps a picture of the page with its numbers.
    if (process.env.SCREENSHOT_DIR)
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/inventories.png`, fullPage: true });
    const locked = await db()
      .selectFrom("measurements")
      .select(["id", "inventory_id"])
      .where("storage_id", "=", storage.id)
      .orderBy("id")
      .execute();
    expect(locked).toEqual([
      { id: incoming.id, inventory_id: inventory.id },
      { id: stock.id, inventory_id: inventory.id },
    ]);

    await gotoHydrated(page, `/measurement/${stock.id}`);
    expect(await page.getByTestId("locked").count()).toBe(1);
    expect(await page.getByTestId("save-details").count()).toBe(0);
    await gotoHydrated(page, `/measurements/timber?open=${storage.id}`);
    expect(await page.getByTestId(`select-${stock.id}`).isDisabled()).toBe(true);
    await context.close();
  });
});
