import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMeasurement, createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// Without JavaScript a form the server refuses comes back with each error beside its field and
// every typed value still in place, and nothing is stored (conform's reply, or the posted values).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function noJsPage(userId: number) {
  const context = await signedInContext(browser, userId, { javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

/** The error list inside the field that holds the labelled control. */
function errorsBeside(page: Page, label: string) {
  return page.locator(".field", { has: page.getByLabel(label, { exact: true }) }).locator(".field-errors");
}

describe("forms without JavaScript keep what was typed and show the errors beside the fields", () => {
  it("manual measurement: a time before the last confirmed inventory", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "Yard 7" });
    await db()
      .updateTable("storages")
      .set({ last_inventory_confirmed_at: new Date("2026-06-01T00:00:00Z") })
      .where("id", "=", storage.id)
      .execute();
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/measurements/timber/manual?storage_id=${storage.id}`);
    await page.getByLabel("Taken (date and time)").fill("2026-05-01T10:00");
    await page.getByLabel("Measurement type").selectOption("1");
    await page.getByLabel("Volume (m³)").fill("3.5");
    await page.getByLabel("Comment").fill("truck 9");
    await page.getByRole("button", { name: "Add measurement" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Taken (date and time)").textContent()).toContain(
      "Earlier than the storage's last confirmed inventory",
    );
    expect(await page.getByLabel("Taken (date and time)").inputValue()).toBe("2026-05-01T10:00");
    expect(await page.getByLabel("Measurement type").inputValue()).toBe("1");
    expect(await page.getByLabel("Volume (m³)").inputValue()).toBe("3.5");
    expect(await page.getByLabel("Comment").inputValue()).toBe("truck 9");
    const stored = await db().selectFrom("measurements").select("id").where("storage_id", "=", storage.id).execute();
    expect(stored).toEqual([]);
    await context.close();
  });

  it("measurement detail: a log length over 30 m", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    const m = await createMeasurement(org.id, storage.id);
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/measurements/timber/${m.id}`);
    await page.getByLabel("Log length (m)").fill("45");
    await page.getByTestId("save-details").click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Log length (m)").textContent()).toContain("Log length must be at most 30 m");
    expect(await page.getByLabel("Log length (m)").inputValue()).toBe("45");
    const row = await db()
      .selectFrom("measurements")
      .select("log_length")
      .where("id", "=", m.id)
      .executeTakeFirstOrThrow();
    expect(row.log_length).toBe(3);
    await context.close();
  });

  it("new cull: a maximum below the minimum", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, "/timber/culls/new");
    await page.getByLabel("Reason").fill("Rot in the heart");
    await page.getByLabel("Minimum diameter (cm)").fill("30");
    await page.getByLabel("Maximum diameter (cm)").fill("10");
    await page.getByTestId("timber-form").getByRole("button").last().click();
    await page.waitForLoadState();
    expect(await page.getByTestId("timber-form").locator(".field-errors").allTextContents()).toContain(
      "The maximum must not be below the minimum.",
    );
    expect(await page.getByLabel("Reason").inputValue()).toBe("Rot in the heart");
    expect(await page.getByLabel("Minimum diameter (cm)").inputValue()).toBe("30");
    expect(await page.getByLabel("Maximum diameter (cm)").inputValue()).toBe("10");
    const culls = await db().selectFrom("culls").select("id").where("organization_id", "=", org.id).execute();
    expect(culls).toEqual([]);
    await context.close();
  });
});
