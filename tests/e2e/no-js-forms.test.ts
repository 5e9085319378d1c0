import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCustomField,
  createDevice,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
} from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { baseUrl } from "#tests/helpers/http";
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

  it("measurement detail: a latitude out of range, the longitude kept", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    const m = await createMeasurement(org.id, storage.id);
    const stored = () =>
      db()
        .selectFrom("measurements")
        .select(["latitude", "longitude"])
        .where("id", "=", m.id)
        .executeTakeFirstOrThrow();
    const before = await stored();
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/measurements/timber/${m.id}`);
    await page.getByLabel("Latitude").fill("91");
    await page.getByLabel("Longitude").fill("24.5");
    await page.getByTestId("save-location").click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Latitude").textContent()).toContain("Latitude must be between −90 and 90");
    expect(await page.getByLabel("Latitude").inputValue()).toBe("91");
    expect(await page.getByLabel("Longitude").inputValue()).toBe("24.5");
    expect(await stored()).toEqual(before);
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

  it("user profile: a blank name", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin", name: "Mari" });
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/users/${user.id}`);
    await page.getByLabel("Name", { exact: true }).fill("   ");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Name").textContent()).toContain("Enter a name.");
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("   ");
    const row = await db().selectFrom("users").select("name").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.name).toBe("Mari");
    await context.close();
  });

  it("device details: a blank name, the affiliation kept", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const device = await createDevice(org.id);
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/devices/${device.id}`);
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByLabel("Affiliation").fill("Crew North");
    await page.getByTestId("device-details").getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Name").textContent()).toContain("Enter the device name.");
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Affiliation").inputValue()).toBe("Crew North");
    const row = await db()
      .selectFrom("devices")
      .select(["name", "affiliation"])
      .where("id", "=", device.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toMatch(/^Phone /);
    expect(row.affiliation).toBeNull();
    await context.close();
  });

  it("organisation settings: a VAT number that is not an EU one", async () => {
    const org = await createOrganization({ name: "Oak Ridge" });
    const user = await createUser(org.id, { role: "admin" });
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, "/settings/organization");
    await page.getByLabel("City").fill("Tartu");
    await page.getByLabel("VAT number").fill("XX1");
    await page.getByTestId("organization-form").getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "VAT number").textContent()).toContain("Enter an EU VAT number");
    expect(await page.getByLabel("VAT number").inputValue()).toBe("XX1");
    expect(await page.getByLabel("City").inputValue()).toBe("Tartu");
    expect(await page.getByLabel("Organisation name").inputValue()).toBe("Oak Ridge");
    const row = await db()
      .selectFrom("organizations")
      .select(["city", "vat_code"])
      .where("id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ city: null, vat_code: null });
    await context.close();
  });

  it("account profile: a blank name, the chosen time zone kept", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin", name: "Mari" });
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, "/settings/account");
    const profile = page.getByTestId("profile-form");
    await profile.getByLabel("Name", { exact: true }).fill("");
    await profile.getByLabel("Time zone").selectOption("Europe/Helsinki");
    await profile.getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Name").textContent()).toContain("Enter a name.");
    expect(await page.getByTestId("profile-form").getByLabel("Time zone").inputValue()).toBe("Europe/Helsinki");
    const row = await db()
      .selectFrom("users")
      .select(["name", "time_zone"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Mari");
    expect(row.time_zone).not.toBe("Europe/Helsinki");
    await context.close();
  });

  it("account password: a weak new password; the expiry choice kept, no password sent back", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, "/settings/account");
    const form = page.getByTestId("password-form");
    await form.getByLabel("Current password", { exact: true }).fill("whatever-it-was");
    await form.getByLabel("New password", { exact: true }).fill("short");
    await form.getByLabel("Confirm password").fill("short");
    await form.getByRole("checkbox").check();
    await form.getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "New password").textContent()).toContain("At least 12 characters");
    const after = page.getByTestId("password-form");
    expect(await after.getByRole("checkbox").isChecked()).toBe(true);
    expect(await after.getByLabel("New password", { exact: true }).inputValue()).toBe("");
    expect(await after.getByLabel("Current password", { exact: true }).inputValue()).toBe("");
    const row = await db()
      .selectFrom("users")
      .select("password_expiry")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_expiry).toBeNull();
    await context.close();
  });

  it("custom field: a blank name, the ticked boxes kept", async () => {
    const org = await createOrganization({ features: ["custom_fields"] });
    const user = await createUser(org.id, { role: "admin" });
    const field = await createCustomField(org.id, { key: "lot", name: "Lot" });
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/custom_fields/${field.id}`);
    const form = page.getByTestId("custom-field-form");
    await form.getByLabel("Name", { exact: true }).fill(" ");
    await form.getByLabel("Required").check();
    await form.getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Name").textContent()).toContain("Enter a name.");
    const after = page.getByTestId("custom-field-form");
    expect(await after.getByLabel("Name", { exact: true }).inputValue()).toBe(" ");
    expect(await after.getByLabel("Required").isChecked()).toBe(true);
    const row = await db()
      .selectFrom("custom_fields")
      .select(["name", "required"])
      .where("id", "=", field.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Lot");
    expect(!!row.required).toBe(false);
    await context.close();
  });
  it("registration: a bad phone on step 2; every other field kept, the passwords not sent back", async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/register");
    // Step 1 refused: a blank organisation name; the contact person, the choices and the ticks kept.
    await page.getByLabel("Contact person").fill("Mari Mets");
    await page.getByLabel("Industry").selectOption("sawmill");
    await page.getByLabel("Country").selectOption("EE");
    await page.getByRole("checkbox", { name: "Trucks" }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Company name").textContent()).toContain("Enter the company name.");
    expect(await page.getByLabel("Contact person").inputValue()).toBe("Mari Mets");
    expect(await page.getByLabel("Industry").inputValue()).toBe("sawmill");
    expect(await page.getByLabel("Country").inputValue()).toBe("EE");
    expect(await page.getByRole("checkbox", { name: "Trucks" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Timber stacks" }).isChecked()).toBe(true);
    // Step 2 refused: the phone; the e-mail kept, the passwords empty.
    const email = `reg-${Date.now()}@nojs.test`;
    await page.getByLabel("Company name").fill("Nojs Timber");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Phone").fill("call me");
    await page.getByLabel("Password", { exact: true }).fill("Kask-Metsas-2026!");
    await page.getByLabel("Confirm password").fill("Kask-Metsas-2026!");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Phone").textContent()).toContain("Use digits, spaces, +, ( ) and - only.");
    expect(await page.getByLabel("Phone").inputValue()).toBe("call me");
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("");
    expect(await page.locator('input[type="hidden"][name="contact_person"]').inputValue()).toBe("Mari Mets");
    expect(await page.locator('input[type="hidden"][name="dashboards"]').count()).toBe(2);
    expect(await page.content()).not.toContain("Kask-Metsas-2026!");
    const users = await db().selectFrom("users").select("id").where("email", "=", email).execute();
    expect(users).toEqual([]);
    await context.close();
  });

  it("forgot password: an address that is not an e-mail is kept beside its error", async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/login?forgot=1");
    await page.getByLabel("Email address").fill("not-an-address");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Email address").textContent()).toContain("Enter a valid email address.");
    expect(await page.getByLabel("Email address").inputValue()).toBe("not-an-address");
    await context.close();
  });

  it("user screen, add a role: no resource chosen; the role and its type kept", async () => {
    const org = await createOrganization();
    const admin = await createUser(org.id, { role: "admin" });
    const member = await createUser(org.id, { role: "viewer" });
    await createStorage(org.id, { name: "North Yard" });
    const roles = () => db().selectFrom("roles").select("id").where("user_id", "=", member.id).execute();
    const before = await roles();
    const { context, page } = await noJsPage(admin.id);
    await gotoHydrated(page, `/users/${member.id}`);
    const form = page.getByTestId("add-role-form");
    await form.getByLabel("Role", { exact: true }).selectOption("measurer");
    await form.getByLabel("Resource type").selectOption("Storage");
    await form.getByRole("button", { name: "Add role" }).click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Resource").textContent()).toContain("Choose the resource type and the resource.");
    const after = page.getByTestId("add-role-form");
    expect(await after.getByLabel("Role", { exact: true }).inputValue()).toBe("measurer");
    expect(await after.getByLabel("Resource type").inputValue()).toBe("Storage");
    expect(await roles()).toEqual(before);
    await context.close();
  });

  it("timber dashboard, bulk move: no target storage; the ticked measurement stays ticked", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "Riverside" });
    const m = await createMeasurement(org.id, storage.id);
    const { context, page } = await noJsPage(user.id);
    await gotoHydrated(page, `/measurements/timber?open=${storage.id}`);
    await page.getByTestId(`select-${m.id}`).check();
    await page.getByTestId("bulk-move").click();
    await page.waitForLoadState();
    expect(await errorsBeside(page, "Move to storage…").textContent()).toContain("Choose the storage to move to.");
    expect(await page.getByTestId(`select-${m.id}`).isChecked()).toBe(true);
    const row = await db()
      .selectFrom("measurements")
      .select("storage_id")
      .where("id", "=", m.id)
      .executeTakeFirstOrThrow();
    expect(row.storage_id).toBe(storage.id);
    await context.close();
  });
});
