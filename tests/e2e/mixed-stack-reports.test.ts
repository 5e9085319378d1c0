import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMeasurement, createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext, waitForHydration } from "#tests/helpers/browser";
import { baseUrl } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

// Issue 18's "Done when": a report made on its screen, measurements attached from the timber
// dashboard's bulk bar in both categories, the tons edited, and the public link opened signed out.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function withLogs(organizationId: number, storageId: number, diameters: number[]) {
  const m = await createMeasurement(organizationId, storageId);
  await db()
    .insertInto("logs")
    .values(
      diameters.map((d, i) => ({
        organization_id: organizationId,
        measurement_id: m.id,
        x: i * 10,
        y: 5,
        r: 4,
        d,
        v: 0.1,
      })),
    )
    .execute();
  await db().updateTable("measurements").set({ logs_count: diameters.length }).where("id", "=", m.id).execute();
  return m.id;
}

describe("mixed stack reports in the browser", () => {
  it("creates a report, attaches from the dashboard in both categories, edits tons, opens the public link signed out", async () => {
    const org = await createOrganization({ name: "Delivery Co", features: ["mixed_stack_reports"] });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "Port yard" });
    const closeUp = await withLogs(org.id, storage.id, [12.6, 15.9]);
    const closeUp2 = await withLogs(org.id, storage.id, [22, 31.3]);
    const farAway = (await createMeasurement(org.id, storage.id, { volume: 12.5 })).id;

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());

    // The empty list offers the create button; the new report gets its page.
    await gotoHydrated(page, "/reports/mixed-stack");
    await page.getByTestId("mixed-stack-empty").waitFor();
    await page.getByTestId("new-mixed-stack-report").click();
    await page.getByTestId("mixed-stack-new-form").waitFor();
    await page.getByLabel("Report name").fill("Ship 42");
    await page.getByTestId("mixed-stack-create").click();
    await page.waitForURL(/\/reports\/mixed-stack\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByTestId("group-close_up-empty").waitFor();

    // From the dashboard's bulk bar: two close up, one far away.
    await gotoHydrated(page, `/measurements/timber?open=${storage.id}`);
    await page.getByTestId(`select-${closeUp}`).check();
    await page.getByTestId(`select-${closeUp2}`).check();
    await page.locator("#bulk-mixed-stack-report").selectOption(String(id));
    await page.getByTestId("bulk-mixed-stack-close_up").click();
    await expect.poll(() => page.getByTestId("bulk-bar").count()).toBe(0);
    await page.getByTestId(`select-${farAway}`).check();
    await page.locator("#bulk-mixed-stack-report").selectOption(String(id));
    await page.getByTestId("bulk-mixed-stack-far_away").click();
    await expect
      .poll(async () =>
        (
          await db()
            .selectFrom("mixed_stack_report_measurements")
            .select(["measurement_id", "category"])
            .where("mixed_stack_report_id", "=", id)
            .orderBy("measurement_id")
            .execute()
        ).map((r) => `${r.measurement_id}:${r.category}`),
      )
      .toEqual([`${closeUp}:close_up`, `${closeUp2}:close_up`, `${farAway}:far_away`]);

    // The report: figures from the close-up logs; the tons edited give the density figures.
    await gotoHydrated(page, `/mixed_stack_reports/${id}`);
    expect(await page.getByTestId("figure-log-count").innerText()).toBe("4");
    expect(await page.getByTestId("figure-average-jas").innerText()).toBe("19.5 cm");
    expect(await page.getByTestId(`item-${farAway}`).count()).toBe(1);
    await page.getByLabel("Total delivery (t)").fill("10.75");
    await page.getByTestId("mixed-stack-save").click();
    await expect.poll(() => page.getByTestId("figure-tons-per-m3").innerText()).toBe("0.860 t/m³");
    expect(await page.getByTestId("figure-m3-per-ton").innerText()).toBe("1.163 m³/t");

    // The public link, opened signed out: the report, read-only.
    const link = await page.getByTestId("public-link").inputValue();
    expect(link.startsWith(`${baseUrl()}/mixed_stack_report/public/`)).toBe(true);
    const outside = await browser.newContext();
    const visitor = await outside.newPage();
    await visitor.goto(link);
    await waitForHydration(visitor);
    expect(await visitor.getByTestId("public-title").innerText()).toBe("Ship 42");
    expect(await visitor.getByTestId("figure-tons-per-m3").innerText()).toBe("0.860 t/m³");
    expect(await visitor.locator('[data-testid^="remove-"]').count()).toBe(0);
    expect(await visitor.getByTestId("mixed-stack-form").count()).toBe(0);
    expect(await visitor.getByText("Port yard").count()).toBe(0);

    // Rotated by the owner: the old link shows the not-found page.
    page.on("dialog", (d) => d.accept());
    await page.getByTestId("rotate-public-link").click();
    await expect.poll(() => page.getByTestId("public-link").inputValue()).not.toBe(link);
    const gone = await visitor.goto(link);
    expect(gone?.status()).toBe(404);
    await outside.close();
    await context.close();
  });
});
