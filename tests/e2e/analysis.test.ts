import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pile, rephotograph, type PileLog } from "#db/seed/pile-variants";
import { createOrganization, createStorage, createUser } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function measured(orgId: number, storageId: number, logs: PileLog[], takenAt: Date) {
  const r = await db()
    .insertInto("measurements")
    .values({
      organization_id: orgId,
      storage_id: storageId,
      taken_at: takenAt,
      log_length: 4,
      logs_count: logs.length,
      volume: logs.reduce((s, l) => s + Math.PI * (l.d / 200) ** 2 * 4, 0),
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  await db()
    .insertInto("logs")
    .values(logs.map((l) => ({ organization_id: orgId, measurement_id: id, x: l.x, y: l.y, r: l.r, d: l.d, v: 0.1 })))
    .execute();
  return id;
}

const dmy = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, "0")}.${String(d.getUTCMonth() + 1).padStart(2, "0")}.${d.getUTCFullYear()}`;

describe("duplicate analysis in the browser", () => {
  it("creates an analysis, waits for it, opens the case, walks its measurements and resolves it", async () => {
    const org = await createOrganization({ features: ["duplicate_storage_measurements"] });
    const user = await createUser(org.id, { role: "admin" });
    await db().updateTable("users").set({ time_zone: "UTC" }).where("id", "=", user.id).execute();
    const storage = await createStorage(org.id, { name: "Birch landing" });
    const now = new Date();
    // One pile counted three times, and a look-alike beside it.
    const original = pile(77);
    const ids = [
      await measured(org.id, storage.id, original, new Date(now.getTime() - 3 * 3600_000)),
      await measured(org.id, storage.id, rephotograph(original, 1), new Date(now.getTime() - 2 * 3600_000)),
      await measured(org.id, storage.id, rephotograph(original, 2), new Date(now.getTime() - 3600_000)),
    ];
    await measured(org.id, storage.id, pile(78), now);

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/analyze_reports");
    await page.getByTestId("analyses-empty").waitFor();
    await page.getByTestId("new-analysis").click();
    await page.waitForURL("**/analyze_reports/new");
    await page.getByLabel("Name").fill("Birch week");
    await page.getByLabel("Period from").fill(dmy(new Date(now.getTime() - 7 * 86_400_000)));
    await page.getByLabel("Period to").fill(dmy(now));
    await page.getByTestId("start-analysis").click();

    // Back on the list, which follows the run until it has finished.
    await page.waitForURL("**/analyze_reports");
    const row = page.getByTestId("analysis-row").filter({ hasText: "Birch week" });
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 30_000 }).toBe("finished");
    await row.getByRole("link", { name: "Birch week" }).click();
    await page.waitForURL(/\/analyze_reports\/\d+$/);

    await page.getByTestId("cases").or(page.getByTestId("cases-empty")).waitFor();
    const kase = page.getByTestId("case");
    expect(await kase.count()).toBe(1);
    expect(await kase.getByTestId("case-reason").allTextContents()).toEqual([
      "Same log ends (pile photographed again)",
    ]);
    expect(await kase.getByTestId("case-measurement").count()).toBe(3);

    // Walk: first, the alert before it, then to the last and the alert after it.
    await kase.getByTestId("walk-case").first().click();
    const walker = page.getByTestId("case-walker");
    await expect.poll(() => walker.getByTestId("walker-position").textContent()).toBe("1 of 3");
    expect(await walker.getByTestId("walker-measurement").getAttribute("data-measurement-id")).toBe(String(ids[0]));
    await walker.getByTestId("walker-previous").click();
    await page.getByTestId("walker-end").filter({ hasText: "first measurement" }).waitFor();
    await walker.getByTestId("walker-next").click();
    await expect.poll(() => walker.getByTestId("walker-position").textContent()).toBe("2 of 3");
    expect(await page.getByTestId("walker-end").count()).toBe(0);
    await walker.getByTestId("walker-next").click();
    await expect.poll(() => walker.getByTestId("walker-position").textContent()).toBe("3 of 3");
    expect(await walker.getByTestId("walker-measurement").getAttribute("data-measurement-id")).toBe(String(ids[2]));
    await walker.getByTestId("walker-next").click();
    await page.getByTestId("walker-end").filter({ hasText: "last measurement" }).waitFor();

    await kase.getByTestId("resolve-case").click();
    await kase.getByTestId("case-resolved").waitFor();
    expect(await kase.getByTestId("case-resolved").textContent()).toMatch(/^Resolved \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    expect(await kase.getByTestId("resolve-case").count()).toBe(0);
    const stored = await db().selectFrom("analyze_report_cases").select("resolved_at").executeTakeFirstOrThrow();
    expect(stored.resolved_at).not.toBeNull();
    await context.close();
  });
});
