import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { addJob, enqueueReportJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// Issue 17's "Done when" in the browser (docs/decisions/021-reports.md): a report generated from
// the timber dashboard's row menu appears on the open list when its job ends (no reload), is
// opened (seen, the badge goes) and confirmed once; storages and a bulk selection added to a
// report with the spec's alerts; a report sent to another organisation, opened and confirmed by
// its admin, 404 for a third; a report still generating does not open until its job ends; and
// the new-report form without JavaScript.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const insertId = async (q: { executeTakeFirstOrThrow(): Promise<{ insertId?: bigint }> }) =>
  Number((await q.executeTakeFirstOrThrow()).insertId);

/** A selling organisation with the reports feature, its admin, a priced assortment and a cull. */
async function seller(name = "Seller Co") {
  const org = await createOrganization({ name, features: ["reports"] });
  await givePlan(org.id);
  const admin = await createUser(org.id, { role: "admin" });
  // 50.00 EUR per m³.
  const sawlog = await insertId(
    db()
      .insertInto("assortments")
      .values({ organization_id: org.id, name: "Spruce sawlog", price_cents: 5000, volume_unit: "m^3" }),
  );
  const measurement = async (
    storageId: number,
    v: { log_length: number; assortment_id: number | null; inventory_id?: number | null },
    diameters: number[],
  ) => {
    const mid = await insertId(
      db()
        .insertInto("measurements")
        .values({
          organization_id: org.id,
          storage_id: storageId,
          taken_at: new Date(Date.now() - 86400_000),
          log_length: v.log_length,
          assortment_id: v.assortment_id,
          inventory_id: v.inventory_id ?? null,
          logs_count: diameters.length,
          volume: 1,
        }),
    );
    await db()
      .insertInto("logs")
      .values(
        diameters.map((d, i) => ({ organization_id: org.id, measurement_id: mid, x: 10 * i, y: 10, r: 5, d, v: 0.1 })),
      )
      .execute();
    return mid;
  };
  const inventoryOf = (storageId: number) =>
    insertId(
      db().insertInto("inventories").values({ organization_id: org.id, storage_id: storageId, open_storage_id: null }),
    );
  return { org, admin, sawlog, measurement, inventoryOf };
}

const reportsOf = (organizationId: number) =>
  db().selectFrom("reports").selectAll().where("organization_id", "=", organizationId).orderBy("id").execute();

const reportMeasurements = async (reportId: number) =>
  (
    await db()
      .selectFrom("report_measurements")
      .select("measurement_id")
      .where("report_id", "=", reportId)
      .orderBy("measurement_id")
      .execute()
  ).map((r) => r.measurement_id);

/** Opens a storage's row menu on the timber dashboard. */
async function openRowMenu(page: Page, storageId: number) {
  await page.getByTestId(`storage-menu-${storageId}`).locator("summary").click();
}

/** The toast with this text, of this kind (success, warning, error). */
async function toast(page: Page, kind: string, text: string) {
  const t = page.locator(`[data-testid="toast"].toast-${kind}`, { hasText: text });
  await t.first().waitFor();
}

describe("reports in the browser", () => {
  it("generates a report from the dashboard, sees it appear live when the job ends, opens and confirms it", async () => {
    const s = await seller();
    const storage = await createStorage(s.org.id, { name: "North landing" });
    // Cylinder by hand (π/4 · d² · L): 4 m logs of 20 and 30 cm: 0.125664 + 0.282743 m³; a 3 m log
    // of 20.6 cm: 0.099983 m³ (tallied in the 20 cm class). 0.508390 m³ in all, at 50 EUR/m³:
    // 25.42 EUR. The measurement in an inventory is not added.
    const a = await s.measurement(storage.id, { log_length: 4, assortment_id: s.sawlog }, [20, 30]);
    const b = await s.measurement(storage.id, { log_length: 3, assortment_id: s.sawlog }, [20.6]);
    const locked = await s.measurement(
      storage.id,
      { log_length: 4, assortment_id: s.sawlog, inventory_id: await s.inventoryOf(storage.id) },
      [40],
    );

    const context = await signedInContext(browser, s.admin.id);
    // The list, open and listening on the organisation's channel, before anything is generated.
    const list = await context.newPage();
    const subscribed = list.waitForResponse((r) => r.url().includes(`/realtime?channel=organization%3A${s.org.id}`));
    await gotoHydrated(list, "/reports");
    await subscribed;
    await list.getByTestId("reports-empty").waitFor();
    expect(await list.getByTestId("nav-badge").count()).toBe(0);
    // A marker that a reload would wipe out.
    await list.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    // The dashboard's row menu: Generate report, cylinder. In a window of its own: the toast
    // travels in a cookie, which the list's live reload in the same browser would take first.
    const dashContext = await signedInContext(browser, s.admin.id);
    const dash = await dashContext.newPage();
    await gotoHydrated(dash, `/measurements/timber?open=${storage.id}`);
    await openRowMenu(dash, storage.id);
    expect(await dash.locator(`#report-formula-${storage.id}`).inputValue()).toBe("cylinder");
    await dash.getByTestId(`generate-report-${storage.id}`).click();
    // Two added, one skipped (in an inventory): the partial alert names both counts.
    await toast(dash, "warning", "is being generated. Measurements added: 2. Not added: 1.");
    const [report] = await reportsOf(s.org.id);
    expect(report.name).toMatch(/^North landing \d{2}\.\d{2}\.\d{4}$/);
    expect(report.volume_formula).toBe("cylinder");
    expect(await reportMeasurements(report.id)).toEqual([a, b]);
    expect(await reportMeasurements(report.id)).not.toContain(locked);

    // The job ends: the open list shows the report, unseen, and the badge counts it, without a reload.
    const row = list.getByTestId(`report-row-${report.id}`);
    await row.waitFor();
    await expect.poll(() => list.getByTestId(`report-status-${report.id}`).innerText()).toBe("New");
    expect(await row.getAttribute("data-unseen")).toBe("true");
    await expect.poll(() => list.getByTestId("nav-badge").innerText()).toBe("1");
    expect(await list.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await row.innerText()).toContain("North landing");

    // Opened: the tallies by hand, and it is seen (the badge goes on the next screen).
    await list.getByTestId(`report-link-${report.id}`).click();
    await list.waitForURL(`**/reports/${report.id}`);
    await list.getByTestId("report-logs").waitFor();
    expect(await list.getByTestId("report-total-logs").innerText()).toBe("3");
    expect(await list.getByTestId("report-total-volume").innerText()).toBe("0.5084");
    expect(await list.getByTestId(`report-value-${s.sawlog}`).innerText()).toBe("25.42 EUR");
    expect(await list.getByTestId(`report-measurement-${a}`).count()).toBe(1);
    expect(await list.getByTestId(`report-measurement-${b}`).count()).toBe(1);
    expect((await reportsOf(s.org.id))[0].seen_at).not.toBeNull();

    // Confirm: asked once, then confirmed and the button disabled, for good.
    const dialogs: string[] = [];
    list.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await list.getByTestId("report-confirm").click();
    await list.getByTestId("report-confirmed").waitFor();
    expect(dialogs).toEqual(["Confirm this report? This cannot be undone."]);
    expect(await list.getByTestId("report-confirm").isDisabled()).toBe(true);
    expect(await list.getByTestId("report-confirm").innerText()).toBe("Confirmed");
    const confirmed = (await reportsOf(s.org.id))[0];
    expect(confirmed.confirmed).toBe(true);
    expect(confirmed.confirmed_by).toBe(s.admin.id);

    await gotoHydrated(list, "/reports");
    expect(await list.getByTestId(`report-status-${report.id}`).innerText()).toBe("Confirmed");
    expect(await list.getByTestId("nav-badge").count()).toBe(0);
    // A confirmed report takes nothing more: the dashboard no longer offers it.
    await gotoHydrated(dash, `/measurements/timber?open=${storage.id}`);
    await openRowMenu(dash, storage.id);
    expect(await dash.getByTestId(`add-storage-report-form-${storage.id}`).count()).toBe(0);
    await Promise.all([context.close(), dashContext.close()]);
  });

  it("adds storages and a bulk selection to a report with the spec's alerts", async () => {
    const s = await seller("Adder Co");
    const all = await createStorage(s.org.id, { name: "All good" });
    const partly = await createStorage(s.org.id, { name: "Partly counted" });
    const none = await createStorage(s.org.id, { name: "All counted" });
    const unsorted = await createStorage(s.org.id, { name: "Unsorted logs" });
    const bulk = await createStorage(s.org.id, { name: "Bulk yard" });
    const a1 = await s.measurement(all.id, { log_length: 4, assortment_id: s.sawlog }, [20]);
    const a2 = await s.measurement(all.id, { log_length: 4, assortment_id: s.sawlog }, [22]);
    const p1 = await s.measurement(partly.id, { log_length: 4, assortment_id: s.sawlog }, [24]);
    await s.measurement(
      partly.id,
      { log_length: 4, assortment_id: s.sawlog, inventory_id: await s.inventoryOf(partly.id) },
      [26],
    );
    await s.measurement(
      none.id,
      { log_length: 4, assortment_id: s.sawlog, inventory_id: await s.inventoryOf(none.id) },
      [28],
    );
    // No assortment, and a log with neither an assortment nor a cull: the warning, nothing added.
    const bad = await s.measurement(unsorted.id, { log_length: 4, assortment_id: null }, [30]);
    const b1 = await s.measurement(bulk.id, { log_length: 5, assortment_id: s.sawlog }, [32]);
    const b2 = await s.measurement(bulk.id, { log_length: 5, assortment_id: s.sawlog }, [34]);
    const b3 = await s.measurement(bulk.id, { log_length: 5, assortment_id: s.sawlog }, [36]);

    const context = await signedInContext(browser, s.admin.id);
    const page = await context.newPage();
    // The report, made on its screen (with JavaScript).
    await gotoHydrated(page, "/reports/new");
    await page.getByLabel("Report name").fill("Delivery 7");
    await page.getByLabel("Volume formula").selectOption("jas");
    await page.getByTestId("report-create").click();
    await page.waitForURL("**/reports");
    await toast(page, "success", "Report created. It is being generated.");
    const [report] = await reportsOf(s.org.id);
    expect(report).toMatchObject({ name: "Delivery 7", volume_formula: "jas", volume_unit: "m^3" });

    const addStorage = async (storageId: number) => {
      await gotoHydrated(page, `/measurements/timber?open=${storageId}`);
      await openRowMenu(page, storageId);
      await page.locator(`#report-target-${storageId}`).selectOption(String(report.id));
      await page.getByTestId(`add-storage-to-report-${storageId}`).click();
    };
    // All added: success with the count.
    await addStorage(all.id);
    await toast(page, "success", "Measurements added to the report: 2.");
    expect(await reportMeasurements(report.id)).toEqual([a1, a2]);
    // Partly: both counts.
    await addStorage(partly.id);
    await toast(page, "warning", "Measurements added: 1. Not added: 1 (in an inventory).");
    expect(await reportMeasurements(report.id)).toEqual([a1, a2, p1]);
    // None: danger.
    await addStorage(none.id);
    await toast(page, "error", "No measurements were added to the report. Not added: 1 (in an inventory).");
    expect(await reportMeasurements(report.id)).toEqual([a1, a2, p1]);
    // A measurement without an assortment: the warning names it and the whole action is cancelled.
    await addStorage(unsorted.id);
    await toast(page, "warning", `Nothing was added. Measurements ${bad} have no assortment`);
    expect(await reportMeasurements(report.id)).toEqual([a1, a2, p1]);

    // The bulk bar: the three ticked measurements.
    await gotoHydrated(page, `/measurements/timber?open=${bulk.id}`);
    await page.getByTestId(`select-${b1}`).check();
    await page.getByTestId(`select-${b2}`).check();
    await page.getByTestId(`select-${b3}`).check();
    await page.locator("#bulk-report-id").selectOption(String(report.id));
    await page.getByTestId("bulk-add-to-report").click();
    await toast(page, "success", "Measurements added to the report: 3.");
    expect(await reportMeasurements(report.id)).toEqual([a1, a2, p1, b1, b2, b3]);

    // The job tallies all six: 6 logs on the report's page once it has finished.
    await expect
      .poll(async () => (await reportsOf(s.org.id))[0].generating_in_progress, { timeout: 20_000 })
      .toBe(false);
    await gotoHydrated(page, `/reports/${report.id}`);
    expect(await page.getByTestId("report-total-logs").innerText()).toBe("6");
    expect(await page.locator("#report-measurements-title").innerText()).toBe("Measurements (6)");
    // Five thumbnails a page: five on the first, the sixth on the second.
    const thumbs = page.locator('[data-testid^="report-measurement-"]');
    expect(await thumbs.count()).toBe(5);
    expect(await page.getByTestId("report-pager").innerText()).toContain("Page 1 of 2");
    await page.getByTestId("report-next-page").click();
    await expect.poll(() => page.getByTestId("report-pager").innerText()).toContain("Page 2 of 2");
    expect(await thumbs.count()).toBe(1);
    await context.close();
  });

  it("a report still generating does not open; when its job ends the list shows it ready without a reload", async () => {
    const s = await seller("Waiting Co");
    const storage = await createStorage(s.org.id, { name: "Slow yard" });
    const m = await s.measurement(storage.id, { log_length: 4, assortment_id: s.sawlog }, [20, 30]);
    // A report whose job has not run yet (enqueued below).
    const id = await insertId(
      db().insertInto("reports").values({
        organization_id: s.org.id,
        name: "Pending delivery",
        volume_formula: "cylinder",
        volume_unit: "m^3",
        reported_at: "2026-11-27",
        generating_in_progress: true,
        generation_enqueued_at: new Date(),
        created_by: s.admin.id,
      }),
    );
    await db()
      .insertInto("report_measurements")
      .values({ organization_id: s.org.id, report_id: id, measurement_id: m })
      .execute();

    const context = await signedInContext(browser, s.admin.id);
    const page = await context.newPage();
    const subscribed = page.waitForResponse((r) => r.url().includes(`/realtime?channel=organization%3A${s.org.id}`));
    await gotoHydrated(page, "/reports");
    await subscribed;
    expect(await page.getByTestId(`report-status-${id}`).innerText()).toBe("Generating…");
    // A generating report is not counted as unseen yet.
    expect(await page.getByTestId("nav-badge").count()).toBe(0);
    await page.getByTestId(`report-link-${id}`).click();
    await page.getByTestId("still-generating").waitFor();
    expect(new URL(page.url()).pathname).toBe("/reports");
    // Opened by its address all the same: back to the list with the alert.
    const direct = await context.newPage();
    await gotoHydrated(direct, `/reports/${id}`);
    expect(new URL(direct.url()).pathname).toBe("/reports");
    await direct.getByTestId("still-generating").waitFor();
    await direct.close();

    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await enqueueReportJob(id, addJob);
    await expect.poll(() => page.getByTestId(`report-status-${id}`).innerText(), { timeout: 20_000 }).toBe("New");
    await expect.poll(() => page.getByTestId("nav-badge").innerText()).toBe("1");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.getByTestId(`report-link-${id}`).click();
    await page.waitForURL(`**/reports/${id}`);
    expect(await page.getByTestId("report-total-logs").innerText()).toBe("2");
    expect(await page.getByTestId("report-total-volume").innerText()).toBe("0.4084");
    await context.close();
  });

  it("sends a report to another organisation: its admin sees it live, opens and confirms it; a third gets 404", async () => {
    const s = await seller("Forest Seller");
    const storage = await createStorage(s.org.id, { name: "South landing" });
    const m = await s.measurement(storage.id, { log_length: 4, assortment_id: s.sawlog }, [20, 30]);
    const buyerOrg = await createOrganization({ name: "Buyer Mill", features: ["reports"] });
    await givePlan(buyerOrg.id);
    const code = `BUY-${buyerOrg.id}`;
    await db().updateTable("organizations").set({ registration_code: code }).where("id", "=", buyerOrg.id).execute();
    const buyer = await createUser(buyerOrg.id, { role: "admin" });
    const thirdOrg = await createOrganization({ name: "Third Co", features: ["reports"] });
    await givePlan(thirdOrg.id);
    const third = await createUser(thirdOrg.id, { role: "admin" });

    // The buyer's list, open before the report exists.
    const buyerContext = await signedInContext(browser, buyer.id);
    const buyerPage = await buyerContext.newPage();
    const subscribed = buyerPage.waitForResponse((r) =>
      r.url().includes(`/realtime?channel=organization%3A${buyerOrg.id}`),
    );
    await gotoHydrated(buyerPage, "/reports");
    await subscribed;
    await buyerPage.getByTestId("reports-empty").waitFor();

    // The seller makes it for the buyer's registration code, in ft³, and adds the measurement.
    const sellerContext = await signedInContext(browser, s.admin.id);
    const page = await sellerContext.newPage();
    await gotoHydrated(page, "/reports/new");
    await page.getByLabel("Report name").fill("Logs for Buyer Mill");
    await page.getByLabel("Recipient's registration code").fill(code);
    await page.getByTestId("report-create").click();
    await page.waitForURL("**/reports");
    const [report] = await reportsOf(s.org.id);
    expect(report.recipient_organization_id).toBe(buyerOrg.id);
    await gotoHydrated(page, `/measurements/timber?open=${storage.id}`);
    await page.getByTestId(`select-${m}`).check();
    await page.locator("#bulk-report-id").selectOption(String(report.id));
    await page.getByTestId("bulk-add-to-report").click();
    await toast(page, "success", "Measurements added to the report: 1.");

    // The buyer's list shows it when the job ends, from the seller, new; the badge counts it.
    const row = buyerPage.getByTestId(`report-row-${report.id}`);
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => buyerPage.getByTestId(`report-status-${report.id}`).innerText()).toBe("New");
    expect(await row.innerText()).toContain("From Forest Seller");
    await expect.poll(() => buyerPage.getByTestId("nav-badge").innerText()).toBe("1");

    // The seller sees it sent, not new for them, and cannot confirm it.
    await gotoHydrated(page, "/reports");
    expect(await page.getByTestId(`report-row-${report.id}`).innerText()).toContain("To Buyer Mill");
    expect(await page.getByTestId(`report-row-${report.id}`).getAttribute("data-unseen")).toBeNull();
    await gotoHydrated(page, `/reports/${report.id}`);
    expect(await page.getByTestId("report-counterpart").innerText()).toBe("Buyer Mill");
    expect(await page.getByTestId("report-confirm").count()).toBe(0);
    expect((await reportsOf(s.org.id))[0].seen_at).toBeNull();

    // The buyer opens it: the tallies, the thumbnail entry without a link into the seller's data.
    await buyerPage.getByTestId(`report-link-${report.id}`).click();
    await buyerPage.waitForURL(`**/reports/${report.id}`);
    expect(await buyerPage.getByTestId("report-counterpart").innerText()).toBe("Forest Seller");
    expect(await buyerPage.getByTestId("report-total-logs").innerText()).toBe("2");
    const entry = buyerPage.getByTestId(`report-measurement-${m}`);
    expect(await entry.innerText()).toContain(`Measurement ${m}`);
    expect(await entry.locator("a").count()).toBe(0);
    expect((await reportsOf(s.org.id))[0].seen_at).not.toBeNull();
    buyerPage.on("dialog", (d) => void d.accept());
    await buyerPage.getByTestId("report-confirm").click();
    await buyerPage.getByTestId("report-confirmed").waitFor();
    expect(await buyerPage.getByTestId("report-confirm").isDisabled()).toBe(true);
    const confirmed = (await reportsOf(s.org.id))[0];
    expect(confirmed.confirmed).toBe(true);
    expect(confirmed.confirmed_by).toBe(buyer.id);
    // The seller's page shows it confirmed.
    await gotoHydrated(page, `/reports/${report.id}`);
    await page.getByTestId("report-confirmed").waitFor();
    // The buyer reads none of the seller's measurements.
    const measurementPage = await buyerPage.goto(`/measurements/timber/${m}`);
    expect(measurementPage?.status()).toBe(404);

    // A third organisation's admin: not found, and not in its list.
    const thirdContext = await signedInContext(browser, third.id);
    const thirdPage = await thirdContext.newPage();
    const answer = await thirdPage.goto(`/reports/${report.id}`);
    expect(answer?.status()).toBe(404);
    await gotoHydrated(thirdPage, "/reports");
    expect(await thirdPage.getByTestId(`report-row-${report.id}`).count()).toBe(0);
    await Promise.all([buyerContext.close(), sellerContext.close(), thirdContext.close()]);
  });

  it("without JavaScript the new report form posts in one step and keeps what was typed on an error", async () => {
    const s = await seller("No Script Co");
    const context = await signedInContext(browser, s.admin.id, { javaScriptEnabled: false });
    const page = await context.newPage();
    await gotoHydrated(page, "/reports/new");
    const errorsBeside = (label: string) =>
      page.locator(".field", { has: page.getByLabel(label, { exact: true }) }).locator(".field-errors");
    // A blank name (spaces pass the browser's own check; the server trims them).
    await page.getByLabel("Report name").fill("   ");
    await page.getByLabel("Volume formula").selectOption("jas");
    await page.getByLabel("Volume unit").selectOption("ft^3");
    await page.getByLabel("Report date").fill("2026-11-20");
    await page.getByLabel("Recipient's registration code").fill("NOBODY-1");
    await page.getByTestId("report-create").click();
    await page.waitForLoadState();
    expect(await errorsBeside("Report name").textContent()).toContain("Enter a report name.");
    expect(await page.getByLabel("Volume formula").inputValue()).toBe("jas");
    expect(await page.getByLabel("Volume unit").inputValue()).toBe("ft^3");
    expect(await page.getByLabel("Report date").inputValue()).toBe("2026-11-20");
    expect(await page.getByLabel("Recipient's registration code").inputValue()).toBe("NOBODY-1");
    expect(await reportsOf(s.org.id)).toEqual([]);

    // A name, but no organisation has that code: the error beside the code, the name kept.
    await page.getByLabel("Report name").fill("Offline delivery");
    await page.getByTestId("report-create").click();
    await page.waitForLoadState();
    expect(await errorsBeside("Recipient's registration code").textContent()).toContain(
      "No other organisation has this registration code.",
    );
    expect(await page.getByLabel("Report name").inputValue()).toBe("Offline delivery");
    expect(await page.getByLabel("Volume unit").inputValue()).toBe("ft^3");
    expect(await reportsOf(s.org.id)).toEqual([]);

    // Corrected: one post makes the report and lands on the list, no second step.
    await page.getByLabel("Recipient's registration code").fill("");
    await page.getByTestId("report-create").click();
    await page.waitForURL("**/reports");
    expect(await page.getByTestId("toast").innerText()).toBe("Report created. It is being generated.");
    const [report] = await reportsOf(s.org.id);
    expect(report).toMatchObject({
      name: "Offline delivery",
      volume_formula: "jas",
      volume_unit: "ft^3",
      reported_at: "2026-11-20",
      recipient_organization_id: null,
    });
    expect(await page.getByTestId(`report-row-${report.id}`).count()).toBe(1);
    await context.close();
  });
});
