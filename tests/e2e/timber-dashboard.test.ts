import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomField, createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { api } from "#tests/helpers/http";
import { deviceUpload, drawnStack, stackPayload } from "#tests/helpers/timber";
import { formatVolume } from "~/domain/format";
import { computeMeasurementLogs } from "~/domain/measurement-logs";
import { ensureActivationCode } from "~/models/device.server";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const m3 = (v: number) => formatVolume(v, { precision: 2, unit: "m^3", locale: "en-GB" });

async function openPage(userId: number, path: string) {
  const context = await signedInContext(browser, userId);
  const page = await context.newPage();
  // No tile server in tests: the map must still draw its markers.
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  page.on("dialog", (d) => d.accept());
  await gotoHydrated(page, path);
  return { context, page };
}

const cellText = (page: Page, testId: string) => page.getByTestId(testId).innerText();

describe("timber measuring from the device to the dashboard, detail, filters, bulk actions and the deleted page", () => {
  it("does the issue's 'Done when'", async () => {
    const org = await createOrganization({ name: "Forest Co" });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin" });
    const riverside = await createStorage(org.id, { name: "Riverside landing", storage_state_id: 4 });
    const hill = await createStorage(org.id, { name: "Hill yard" });
    await createCustomField(org.id, { key: "lot", name: "Lot" });
    // Apart on the map: storages at one spot would stay one cluster until zoom 18.
    await db().updateTable("storages").set({ latitude: 59.43, longitude: 24.75 }).where("id", "=", hill.id).execute();

    // Pair a device with the organisation's activation code, as the mobile app does.
    const code = await ensureActivationCode(db(), { organizationId: org.id });
    const paired = await api("/api/device/pairings", {
      json: { activation_code: code, hw_id: "phone-1", name: "Field phone" },
    });
    expect(paired.status).toBe(201);
    const token = paired.data.device_token as string;

    // Two stack photos with their logs: one today (lot L-7), one two weeks ago (lot L-8).
    const a = await drawnStack(21);
    const b = await drawnStack(22);
    const upA = await deviceUpload(token, {
      measurement: stackPayload(a.stack, { client_id: "a", storage_id: riverside.id, custom_fields: { lot: "L-7" } }),
      photo: a.jpeg,
    });
    const twoWeeksAgo = new Date(Date.now() - 14 * 86400_000).toISOString();
    const upB = await deviceUpload(token, {
      measurement: stackPayload(b.stack, {
        client_id: "b",
        storage_id: riverside.id,
        taken_at: twoWeeksAgo,
        latitude: 58.5,
        longitude: 26.9,
        custom_fields: { lot: "L-8" },
      }),
      photo: b.jpeg,
    });
    expect([upA.status, upB.status]).toEqual([201, 201]);
    const volA = computeMeasurementLogs(a.stack.logs, {
      references: [a.stack.reference],
      formula: "cylinder",
      lengthM: 3,
    }).volume;
    const volB = computeMeasurementLogs(b.stack.logs, {
      references: [b.stack.reference],
      formula: "cylinder",
      lengthM: 3,
    }).volume;
    const idA = upA.data.measurement.id as number;
    const idB = upB.data.measurement.id as number;

    // The dashboard shows the storage with the computed volume (default range: three months).
    const { context, page } = await openPage(user.id, "/measurements/timber");
    expect(await cellText(page, `storage-${riverside.id}-volume`)).toBe(m3(volA + volB));
    expect(await cellText(page, `storage-${riverside.id}-logs`)).toBe(
      String(a.stack.logs.length + b.stack.logs.length),
    );
    expect(
      (
        await db()
          .selectFrom("users")
          .select("recent_measurement_mode")
          .where("id", "=", user.id)
          .executeTakeFirstOrThrow()
      ).recent_measurement_mode,
    ).toBe("timber");

    // The map: storage markers, then the measurements view with one marker per located measurement.
    await page.locator(".map-marker-storage").first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator(".map-marker-storage").count(), { timeout: 10_000 }).toBe(2);
    await page.getByTestId("map-view-measurements").click();
    await page.locator(".map-marker-measurement").first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator(".map-marker-measurement").count(), { timeout: 10_000 }).toBe(2);
    await page.locator(`.map-marker-measurement[title="Measurement #${idB}"]`).click();
    await page.waitForURL(`**/measurement/${idB}`);
    expect(await page.getByTestId("detail-volume").innerText()).toBe(m3(volB));
    expect(await page.getByTestId("overlay-log").count()).toBe(b.stack.logs.length);

    // Edit the details: a log length of 6 m doubles the cylinder volume, computed on the server.
    await gotoHydrated(page, `/measurements/timber/${idA}`);
    expect(await page.getByTestId("detail-volume").innerText()).toBe(m3(volA));
    await page.getByLabel("Log length (m)").fill("6");
    await page.getByTestId("save-details").click();
    await expect.poll(() => page.getByTestId("detail-volume").innerText()).toBe(m3(volA * 2));
    const stored = await db()
      .selectFrom("measurements")
      .select("volume")
      .where("id", "=", idA)
      .executeTakeFirstOrThrow();
    expect(stored.volume).toBeCloseTo(volA * 2, 9);

    // Filters: a custom field value, the "today" quick range, a storage.
    await gotoHydrated(page, "/measurements/timber");
    await page.getByTestId("toggle-filters").click();
    await page.getByLabel("Lot").fill("L-8");
    await page.getByTestId("apply-filters").click();
    await expect.poll(() => cellText(page, `storage-${riverside.id}-volume`)).toBe(m3(volB));
    await gotoHydrated(page, "/measurements/timber");
    await page.getByTestId("range-today").click();
    await expect.poll(() => cellText(page, `storage-${riverside.id}-volume`)).toBe(m3(volA * 2));
    expect(await page.getByTestId("range-today").getAttribute("aria-current")).toBe("true");
    await page.getByTestId("range-3months").click();
    await page.getByTestId("toggle-filters").click();
    // A checkbox list, not a Ctrl-click select: open it, search, tick the storage.
    await page.getByTestId("multi-storage_ids").locator("summary").click();
    await page.getByTestId("multi-storage_ids").locator(`input[value="${hill.id}"]`).check();
    await page.getByTestId("apply-filters").click();
    await expect.poll(() => page.getByTestId(`storage-${riverside.id}`).count()).toBe(0);
    await expect.poll(() => page.getByTestId(`storage-${hill.id}`).count(), { timeout: 10_000 }).toBe(1);

    // Expand the storage, select a measurement, move it to the other storage.
    await gotoHydrated(page, "/measurements/timber");
    await page.getByTestId(`expand-${riverside.id}`).click();
    await page.getByTestId(`measurement-${idA}`).waitFor();
    expect(await page.getByTestId("bulk-bar").count()).toBe(0);
    await page.getByTestId(`select-${idA}`).check();
    await page.getByTestId("bulk-bar").waitFor();
    await page.locator("#bulk-target").selectOption(String(hill.id));
    await page.getByTestId("bulk-move").click();
    await expect.poll(() => cellText(page, `storage-${hill.id}-volume`)).toBe(m3(volA * 2));
    expect(
      (await db().selectFrom("measurements").select("storage_id").where("id", "=", idA).executeTakeFirstOrThrow())
        .storage_id,
    ).toBe(hill.id);
    // The bar clears once the action succeeded.
    await expect.poll(() => page.getByTestId("bulk-bar").count()).toBe(0);

    // Delete the other one (the browser confirmation is accepted) and find both on the deleted page.
    await gotoHydrated(page, `/measurements/timber?open=${riverside.id}`);
    await page.getByTestId(`select-${idB}`).check();
    await page.getByTestId("bulk-delete").click();
    await expect.poll(() => cellText(page, `storage-${riverside.id}-volume`)).toBe("-");
    await gotoHydrated(page, `/measurements/timber?open=${hill.id}`);
    await page.getByTestId(`select-${idA}`).check();
    await page.getByTestId("bulk-delete").click();
    await expect.poll(() => cellText(page, `storage-${hill.id}-volume`)).toBe("-");
    await page.getByRole("link", { name: "Deleted measurements" }).click();
    await page.waitForURL("**/measurements/timber/deleted");
    await expect.poll(() => page.getByTestId(`deleted-${idA}`).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByTestId(`deleted-${idB}`).count(), { timeout: 10_000 }).toBe(1);
    const total = Math.round((volA * 2 + volB) * 1000) / 1000;
    expect(await page.getByTestId("deleted-total").innerText()).toBe(
      total.toLocaleString("en-GB", { minimumFractionDigits: 3, maximumFractionDigits: 3 }),
    );
    await context.close();
  });

  it("a viewer sees the measurement read-only; an inventory locks it; the ends of the list alert", async () => {
    const org = await createOrganization();
    await givePlan(org.id);
    const viewer = await createUser(org.id, { role: "viewer" });
    const admin = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    const { stack, jpeg } = await drawnStack(30);
    const code = await ensureActivationCode(db(), { organizationId: org.id });
    const paired = await api("/api/device/pairings", { json: { activation_code: code, hw_id: "p2", name: "Phone" } });
    const up = await deviceUpload(paired.data.device_token, {
      measurement: stackPayload(stack, { client_id: "v", storage_id: storage.id }),
      photo: jpeg,
    });
    const id = up.data.measurement.id as number;

    const v = await openPage(viewer.id, `/measurement/${id}`);
    expect(await v.page.getByTestId("read-only").count()).toBe(1);
    expect(await v.page.getByTestId("save-details").count()).toBe(0);
    expect(await v.page.locator("#in-log_length").isDisabled()).toBe(true);
    await v.page.getByTestId("next").click();
    await v.page.getByTestId("end-alert").waitFor();
    await v.context.close();

    await db().updateTable("measurements").set({ inventory_id: 9 }).where("id", "=", id).execute();
    const a = await openPage(admin.id, `/measurement/${id}`);
    expect(await a.page.getByTestId("locked").count()).toBe(1);
    expect(await a.page.getByTestId("save-details").count()).toBe(0);
    await gotoHydrated(a.page, `/measurements/timber?open=${storage.id}`);
    expect(await a.page.getByTestId(`select-${id}`).isDisabled()).toBe(true);
    await a.context.close();
  });
});
