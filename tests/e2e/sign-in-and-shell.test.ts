import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRole, createOrganization, createUser, PASSWORD } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { baseUrl } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function adminOfTwoOrganisations() {
  const first = await createOrganization({ name: "Alder Yard", features: ["reports"] });
  const second = await createOrganization({ name: "Birch Mill" });
  const user = await createUser(first.id, { role: "admin", name: "Anna Admin" });
  await addRole(user.id, second.id, "viewer");
  return { first, second, user };
}

describe("sign in, the shell, switching organisation, sign out", () => {
  it("a wrong password shows the message; the right one opens the shell", async () => {
    const { user } = await adminOfTwoOrganisations();
    const page = await browser.newPage({ baseURL: baseUrl() });
    await gotoHydrated(page, "/");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/login");

    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("Not-the-password-1!");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByTestId("login-error").textContent()).toBe("The email or password is incorrect.");
    // The form is cleared after a login error.
    expect(await page.getByLabel("Password").inputValue()).toBe("");

    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/measurements/timber");
    expect(await page.getByTestId("org-name").textContent()).toBe("Alder Yard");
    // Measurement types, exports, and the admin entries with locks where the plan lacks the feature.
    for (const path of [
      "/measurements/timber",
      "/measurements/container",
      "/measurements/truck",
      "/measurements/lumber",
      "/exports",
      "/devices",
      "/users",
      "/billing",
    ]) {
      await expect.poll(() => page.getByTestId(`nav-${path}`).count(), { timeout: 10_000 }).toBe(1);
    }
    expect(await page.getByTestId("nav-/measurements/cmpc").count()).toBe(0);
    expect(await page.locator('[data-testid="nav-/reports"] [data-testid="nav-locked"]').count()).toBe(0);
    await expect
      .poll(() => page.locator('[data-testid="nav-/inventories"] [data-testid="nav-locked"]').count(), {
        timeout: 10_000,
      })
      .toBe(1);
    await page.close();
  });

  it("switches organisation with a full reload to / and signs out", async () => {
    const { user } = await adminOfTwoOrganisations();
    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/truck");
    await expect.poll(() => page.getByTestId("truck-dashboard").count(), { timeout: 10_000 }).toBe(1);

    await page.getByTestId("org-switcher").locator("summary").click();
    const patch = page.waitForRequest(
      (r) => r.url().includes("/api/web_app/users/switch_organization/") && r.method() === "PATCH",
    );
    await page.getByRole("menuitem", { name: "Birch Mill" }).click();
    await patch;
    // Back at / which sends the user to the last measurement mode.
    await page.waitForURL("**/measurements/truck");
    await expect.poll(() => page.getByTestId("org-name").first().textContent()).toBe("Birch Mill");
    // A viewer in Birch Mill: no admin entries.
    expect(await page.getByTestId("admin-nav").count()).toBe(0);

    await page.getByTestId("user-menu").locator("summary").click();
    await page.getByTestId("sign-out").click();
    await page.waitForURL("**/login");
    await gotoHydrated(page, "/measurements/timber");
    await page.waitForURL("**/login?redirectTo=%2Fmeasurements%2Ftimber");
    const sessions = await db().selectFrom("sessions").select("revoked_at").where("user_id", "=", user.id).execute();
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    await context.close();
  });

  it("unknown paths show the not-found notice with Go back; admin screens tell others they are not allowed", async () => {
    const org = await createOrganization();
    const viewer = await createUser(org.id, { role: "viewer" });
    const context = await signedInContext(browser, viewer.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/timber");
    const response = await gotoHydrated(page, "/no/such/page");
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByTestId("not-found").isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole("button", { name: "Go back" }).click();
    await page.waitForURL("**/measurements/timber");

    const forbidden = await gotoHydrated(page, "/users");
    expect(forbidden?.status()).toBe(403);
    await expect.poll(() => page.getByTestId("not-allowed").isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it("an expired session sends the user to /login with the session-expired message", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id);
    const context = await signedInContext(browser, user.id);
    await db()
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", user.id)
      .execute();
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/timber");
    await page.waitForURL("**/login?**");
    await expect.poll(() => page.getByTestId("session-expired").isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });
});

describe("without JavaScript", () => {
  it("signs in, switches organisation and signs out through plain forms", async () => {
    const { user } = await adminOfTwoOrganisations();
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/login");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/measurements/timber");
    expect(await page.getByTestId("org-name").textContent()).toBe("Alder Yard");

    await page.getByTestId("org-switcher").locator("summary").click();
    await page.getByRole("menuitem", { name: "Birch Mill" }).click();
    await page.waitForURL("**/measurements/timber");
    expect(await page.getByTestId("org-name").first().textContent()).toBe("Birch Mill");

    await page.getByTestId("user-menu").locator("summary").click();
    await page.getByTestId("sign-out").click();
    await page.waitForURL("**/login");
    await context.close();
  });

  it("a wrong password shows the message without JavaScript too", async () => {
    const { user } = await adminOfTwoOrganisations();
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/login");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("Wrong-password-9!");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByTestId("login-error").textContent()).toBe("The email or password is incorrect.");
    await context.close();
  });
});
