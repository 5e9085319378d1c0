import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createStorage, createUser, PASSWORD, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { baseUrl } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import { currentTotp } from "~/utils/totp.server";
import type { Browser, Page } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function mailLink(to: string, pattern: RegExp) {
  const mail = await db()
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to_address", "=", to)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const m = mail.text_body.match(pattern);
  if (!m) throw new Error(`no link in ${mail.text_body}`);
  return new URL(m[0]).pathname + new URL(m[0]).search;
}

async function signIn(page: Page, email: string, password: string) {
  await gotoHydrated(page, "/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByTestId("user-menu").locator("summary").click();
  await page.getByTestId("sign-out").click();
  await page.waitForURL("**/login");
}

describe("registration, verification and the first sign-in", () => {
  it("registers in two steps, verifies from the outbox, pairs the app screen, then signs in again", async () => {
    const page = await browser.newPage({ baseURL: baseUrl() });
    await gotoHydrated(page, "/login");
    await page.getByRole("link", { name: "Register your organisation" }).click();
    await page.waitForURL("**/register");
    await page.getByLabel("Company name").fill("Spruce Hill Sawmill");
    await page.getByLabel("Contact person").fill("Kadri Kask");
    await page.getByLabel("Industry").selectOption("sawmill");
    await page.getByLabel("Country").selectOption("EE");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => page.getByTestId("register-step").textContent()).toBe("Step 2 of 2");
    await page.getByLabel("Email").fill("kadri@sprucehill.test");
    await page.getByLabel("Phone").fill("+372 5123 4567");
    // A word of the company name is refused by the server.
    await page.getByLabel("Password", { exact: true }).fill("Spruce-Forest-2026!");
    await page.getByLabel("Confirm password").fill("Spruce-Forest-2026!");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.locator(".field-errors").first().textContent()).toContain("must not contain a word");
    const submit = page.getByRole("button", { name: "Create account" });
    await page.getByLabel("Password", { exact: true }).fill("Metsad-Kuusk-2026!");
    await expect.poll(() => submit.isDisabled()).toBe(true); // confirmation differs
    await page.getByLabel("Confirm password").fill("Metsad-Kuusk-2026!");
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await submit.click();
    await page.waitForURL("**/register?done=1");
    await expect.poll(() => page.getByTestId("register-success").isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole("link", { name: "Go to the application" }).click();
    await page.waitForURL("**/verification");
    expect(await page.getByTestId("verification-pending").textContent()).toContain("kadri@sprucehill.test");

    await gotoHydrated(page, await mailLink("kadri@sprucehill.test", /http\S+\/verification\?token=\S+/));
    await page.waitForURL("**/setup");
    const org = await db()
      .selectFrom("organizations")
      .selectAll()
      .where("name", "=", "Spruce Hill Sawmill")
      .executeTakeFirstOrThrow();
    expect(await page.getByTestId("device-key").textContent()).toBe(org.device_activation_code);
    await page.getByRole("button", { name: "Continue to the application" }).click();
    await page.waitForURL("**/measurements/timber");
    await signOut(page);
    await signIn(page, "kadri@sprucehill.test", "Metsad-Kuusk-2026!");
    await page.waitForURL("**/measurements/timber");
    expect(await page.getByTestId("org-name").first().textContent()).toBe("Spruce Hill Sawmill");
    await page.close();
  });
});

describe("two-factor sign-in", () => {
  it("enables two-factor in settings and signs in with a code, then with a backup code; a wrong code resets", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/settings");
    await page.waitForURL("**/settings/account");
    await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
    await page.getByTestId("otp-qr").locator("svg").waitFor();
    // Two-factor is on only after a code from the app (of the secret just shown).
    const secret = (
      await db().selectFrom("users").select("otp_pending_secret").where("id", "=", user.id).executeTakeFirstOrThrow()
    ).otp_pending_secret!;
    expect(await page.getByTestId("otp-url").textContent()).toContain(`secret=${secret}`);
    await page.getByLabel("Code from the app").fill(currentTotp(secret));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByTestId("backup-codes").waitFor();
    const codes = await page.getByTestId("backup-codes").locator("code").allTextContents();
    expect(codes).toHaveLength(10);
    expect(
      (await db().selectFrom("users").select("otp_secret").where("id", "=", user.id).executeTakeFirstOrThrow())
        .otp_secret,
    ).toBe(secret);
    await signOut(page);

    await signIn(page, user.email, PASSWORD);
    await page.getByLabel("One-time code").fill(currentTotp(secret) === "123456" ? "654321" : "123456");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => page.getByTestId("login-error").textContent()).toContain("one-time code is not valid");

    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("One-time code").fill(currentTotp(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/measurements/timber");
    await signOut(page);

    await signIn(page, user.email, PASSWORD);
    await page.getByLabel("One-time code").fill(codes[0]);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/measurements/timber");
    await context.close();
  });
});

describe("password reset", () => {
  it("asks for a link in the forgot-password dialog and sets a new password from the outbox link", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const page = await browser.newPage({ baseURL: baseUrl() });
    await gotoHydrated(page, "/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect.poll(() => page.getByTestId("login-notice").textContent()).toContain("we have sent a link");
    await gotoHydrated(page, await mailLink(user.email, /http\S+\/reset_password\/\S+/));
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect.poll(() => page.getByTestId("reset-error").textContent()).toContain("used this password recently");
    await page.getByLabel("New password").fill("Oak-Planks-4455!");
    await page.getByLabel("Confirm password").fill("Oak-Planks-4455!");
    await page.getByRole("button", { name: "Save new password" }).click();
    await page.waitForURL("**/login");
    await signIn(page, user.email, "Oak-Planks-4455!");
    await page.waitForURL("**/measurements/timber");
    await page.close();
  });
});

describe("users and roles", () => {
  it("an admin invites a user who accepts and signs in; the admin assigns a storage role", async () => {
    const org = await createOrganization({ name: "Larch Yard" });
    const admin = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "North Yard" });
    const context = await signedInContext(browser, admin.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/users");
    await page.getByRole("link", { name: "Invite user" }).click();
    await page.waitForURL("**/users/new");
    // The URL changes before the new page has rendered: wait for its form, not the old page's fields.
    await page.getByRole("button", { name: "Send invitation" }).waitFor();
    await page.getByLabel("Email").fill(admin.email);
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => page.getByTestId("user-exists").isVisible()).toBe(true);
    await page.getByLabel("Email").fill("peeter@larch.test");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.waitForURL("**/users");
    expect(await page.getByTestId("users-table").textContent()).toContain("peeter@larch.test");

    const guest = await browser.newPage({ baseURL: baseUrl() });
    await gotoHydrated(guest, await mailLink("peeter@larch.test", /http\S+\/accept_invitation\/\S+/));
    await guest.getByLabel("New password").fill("Larch-Logs-9876!");
    await guest.getByLabel("Confirm password").fill("Larch-Logs-9876!");
    await guest.getByRole("button", { name: "Set password and join" }).click();
    await guest.waitForURL("**/login");
    await signIn(guest, "peeter@larch.test", "Larch-Logs-9876!");
    await guest.waitForURL("**/setup");
    await guest.getByRole("button", { name: "Continue to the application" }).click();
    await guest.waitForURL("**/measurements/timber");
    await guest.close();

    await page.getByRole("link", { name: "peeter@larch.test" }).click();
    await page.waitForURL(/\/users\/\d+$/);
    await page.getByLabel("Role", { exact: true }).selectOption("measurer");
    await page.getByLabel("Resource type").selectOption("Storage");
    await page.getByLabel("Resource", { exact: true }).selectOption(String(storage.id));
    await page.getByRole("button", { name: "Add role" }).click();
    await expect.poll(() => page.getByTestId("role-rows").textContent()).toContain("North Yard");
    const peeter = await db()
      .selectFrom("users")
      .select("id")
      .where("email", "=", "peeter@larch.test")
      .executeTakeFirstOrThrow();
    const roles = await db().selectFrom("roles").selectAll().where("user_id", "=", peeter.id).execute();
    expect(roles.map((r) => `${r.name}:${r.assignable_type}:${r.assignable_id}`).sort()).toEqual([
      `measurer:Storage:${storage.id}`,
      `viewer:Organization:${org.id}`,
    ]);
    await gotoHydrated(page, "/users");
    await expect.poll(() => page.getByTestId("storage-role-marker").count(), { timeout: 10_000 }).toBe(1);
    // The role panel is hidden on one's own page.
    await gotoHydrated(page, `/users/${admin.id}`);
    expect(await page.getByTestId("role-panel").count()).toBe(0);
    await context.close();
  });
});

describe("devices", () => {
  it("links a device by code: the app pairs with the shown code, calls the device API with its token, and the admin edits its access", async () => {
    const org = await createOrganization({ name: "Pine Port", features: ["storage_access_management"] });
    await givePlan(org.id);
    const admin = await createUser(org.id, { role: "admin" });
    const yard = await createStorage(org.id, { name: "Harbour Yard" });
    await createStorage(org.id, { name: "Forest Road" });
    const { ensureActivationCode } = await import("~/models/device.server");
    await ensureActivationCode(db(), { organizationId: org.id });
    const context = await signedInContext(browser, admin.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/devices");
    await expect.poll(() => page.getByTestId("devices-empty").isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole("link", { name: "Link a device" }).click();
    await page.getByRole("link", { name: /By code/ }).click();
    const code = await page.getByLabel("Activation code").inputValue();
    expect(code).toMatch(/^[A-Z0-9]{8}$/);

    // The mobile app pairs with the code and uses its device token.
    const pairing = await fetch(`${baseUrl()}/api/device/pairings`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ activation_code: code, hw_id: "android-e2e", name: "Loader phone" }),
    });
    expect(pairing.status).toBe(201);
    const { device_token } = await pairing.json();
    const authorised = await fetch(`${baseUrl()}/api/device/anything`, {
      headers: { Authorization: `Bearer ${device_token}` },
    });
    expect(authorised.status).toBe(404); // authenticated: an unknown device path
    const refused = await fetch(`${baseUrl()}/api/device/anything`, {
      headers: { Authorization: "Bearer not-a-token" },
    });
    expect(refused.status).toBe(401);

    await page.getByRole("link", { name: "Back to devices" }).click();
    await page.waitForURL("**/devices");
    await page.getByRole("link", { name: /Loader phone/ }).click();
    await page.waitForURL(/\/devices\/\d+$/);
    await expect.poll(() => page.getByTestId("new-badge").isVisible(), { timeout: 10_000 }).toBe(true);
    const save = page.getByTestId("device-access").getByRole("button", { name: "Save" });
    await expect.poll(() => save.isDisabled()).toBe(true);
    await page.getByLabel("Chosen storages").check();
    await page.getByLabel("Harbour Yard").check();
    await page.getByLabel("Default storage").selectOption(String(yard.id));
    await save.click();
    await expect
      .poll(
        async () =>
          await db()
            .selectFrom("devices")
            .select(["all_storages", "default_storage_id"])
            .where("hw_id", "=", "android-e2e")
            .executeTakeFirstOrThrow(),
      )
      .toEqual({ all_storages: false, default_storage_id: yard.id });
    const device = await db()
      .selectFrom("devices")
      .select("id")
      .where("hw_id", "=", "android-e2e")
      .executeTakeFirstOrThrow();
    expect(
      await db().selectFrom("device_storages").select("storage_id").where("device_id", "=", device.id).execute(),
    ).toEqual([{ storage_id: yard.id }]);

    await gotoHydrated(page, "/devices/999999");
    expect(await page.getByTestId("device-not-found").textContent()).toContain("999999");
    await context.close();
  });
});

describe("custom fields and timber master data", () => {
  it("creates a custom field with a dropdown value and an assortment; built-in species are not clickable", async () => {
    const org = await createOrganization({
      name: "Birch Co",
      features: ["custom_fields", "timber_management", "diameter_profiles", "minmax_assortments"],
    });
    const admin = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, admin.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/custom_fields");
    await expect.poll(() => page.getByTestId("custom-fields-empty").isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole("link", { name: "New field" }).click();
    await page.waitForURL("**/custom_fields/new");
    await page.getByLabel("Name").fill("Forest block");
    await page.getByLabel("Key").fill("forest_block");
    await page.getByLabel("Data type").selectOption("string");
    await page.getByLabel("Required").check();
    await page.getByRole("button", { name: "Create field" }).click();
    await page.waitForURL(/\/custom_fields\/\d+$/);
    await page.getByLabel("New value").fill("Block 12");
    await page.getByRole("button", { name: "Add value" }).click();
    await expect.poll(() => page.getByTestId("custom-field-values").textContent()).toContain("Block 12");
    const field = await db()
      .selectFrom("custom_fields")
      .selectAll()
      .where("organization_id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(field).toMatchObject({
      key: "forest_block",
      data_type: "string",
      required: true,
      source_key: "measurement",
    });

    await gotoHydrated(page, "/timber");
    await page.waitForURL("**/timber/species");
    // Built-in species: no link, a marker with the explanation.
    expect(await page.getByTestId("timber-table").getByRole("link").count()).toBe(0);
    expect(await page.getByTestId("built-in-marker").count()).toBeGreaterThan(5);
    await page.getByTestId("timber-tab-assortments").click();
    await page.waitForURL("**/timber/assortments");
    await page.getByRole("link", { name: "New assortment" }).click();
    await page.waitForURL("**/timber/assortments/new");
    await page.getByLabel("Name").fill("Birch veneer log");
    await page.getByLabel("Species").selectOption({ index: 1 });
    await page.getByLabel("Minimum diameter (cm)").fill("26");
    await page.getByLabel("Maximum diameter (cm)").fill("40");
    await page.getByLabel("Per log").check();
    await page.getByLabel("Price").fill("12.50");
    await page.getByRole("button", { name: "Create" }).click();
    await page.waitForURL("**/timber/assortments");
    expect(await page.getByTestId("timber-table").textContent()).toContain("Birch veneer log");
    const row = await db()
      .selectFrom("assortments")
      .selectAll()
      .where("organization_id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: "Birch veneer log",
      min_diameter: 26,
      max_diameter: 40,
      price_per_log_cents: 1250,
      price_cents: null,
    });
    await context.close();
  });

  it("shows the upsell and feature notices without the features", async () => {
    const org = await createOrganization();
    const admin = await createUser(org.id, { role: "admin" });
    const context = await signedInContext(browser, admin.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/custom_fields");
    await expect.poll(() => page.getByTestId("upsell").isVisible(), { timeout: 10_000 }).toBe(true);
    await gotoHydrated(page, "/timber/diameter_profiles");
    await expect.poll(() => page.getByTestId("upsell").isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });
});

describe("idle logout", () => {
  it("warns after 14 minutes without a click and signs out at 15", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await page.clock.install();
    await gotoHydrated(page, "/measurements/timber");
    await page.waitForLoadState("networkidle");
    await page.clock.fastForward("14:05");
    await page.getByTestId("idle-warning").waitFor();
    await page.clock.fastForward("01:00");
    await page.waitForURL("**/login?idle=1");
    await expect.poll(() => page.getByTestId("idle-logged-out").isVisible(), { timeout: 10_000 }).toBe(true);
    const sessions = await db().selectFrom("sessions").select("revoked_at").where("user_id", "=", user.id).execute();
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    await context.close();
  });
});

describe("without JavaScript", () => {
  it("registers in two steps and signs in with a one-time code through plain forms", async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/register");
    await page.getByLabel("Company name").fill("Oak Ridge");
    await page.getByLabel("Contact person").fill("Tiit Tamm");
    await page.getByLabel("Industry").selectOption("forest_owner");
    await page.getByLabel("Country").selectOption("FI");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Email").fill("tiit@oakridge.test");
    await page.getByLabel("Phone").fill("+358 40 123 4567");
    await page.getByLabel("Password", { exact: true }).fill("Metsa-Polku-7788!");
    await page.getByLabel("Confirm password").fill("Metsa-Polku-7788!");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL("**/register?done=1");
    const user = await db()
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "tiit@oakridge.test")
      .executeTakeFirstOrThrow();
    const org = await db()
      .selectFrom("organizations")
      .selectAll()
      .where("name", "=", "Oak Ridge")
      .executeTakeFirstOrThrow();
    expect(org.country).toBe("FI");

    const { newTotpSecret } = await import("~/utils/totp.server");
    const secret = newTotpSecret();
    await db()
      .updateTable("users")
      .set({ otp_enabled: true, otp_secret: secret, verified_at: new Date(), devices_updated_at: new Date() })
      .where("id", "=", user.id)
      .execute();
    await context.clearCookies();
    await gotoHydrated(page, "/login");
    await page.getByLabel("Email").fill("tiit@oakridge.test");
    await page.getByLabel("Password", { exact: true }).fill("Metsa-Polku-7788!");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("One-time code").fill(currentTotp(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/measurements/timber");
    await context.close();
  });
});
