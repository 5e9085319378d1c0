import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMeasuredStack, createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { convertVolume, formatVolume, volumeUnitLabel, type VolumeUnit } from "~/domain";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// Issue 24: a measurer deletes a log and adds one in the editor, saves, goes back to the detail
// page and reads the change in its History panel: who, what (logs added and removed) and the
// volume change with its sign in the user's unit, equal to the stored before and after.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function screen(page: Page, x: number, y: number) {
  const box = (await page.getByTestId("editor-canvas").boundingBox())!;
  const p = await page.evaluate(
    ([ix, iy]) =>
      (
        window as unknown as { timberEditor: { toScreen(x: number, y: number): { x: number; y: number } } }
      ).timberEditor.toScreen(ix, iy),
    [x, y],
  );
  return { x: box.x + p.x, y: box.y + p.y };
}

describe("the History panel", () => {
  it("shows the editor's save with the logs added and removed and the volume change", async () => {
    const org = await createOrganization({ name: "History Forest" });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin", name: "Tiit Tamm" });
    const storage = await createStorage(org.id, { name: "Landing" });
    const stack = await createMeasuredStack(org.id, storage.id, { seed: 31, lengthM: 4 });
    const logs = await db()
      .selectFrom("logs")
      .selectAll()
      .where("measurement_id", "=", stack.id)
      .orderBy("id")
      .execute();
    const u = await db()
      .selectFrom("users")
      .select(["volume_unit", "rounding_precision"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    const fmt = (m3: number) =>
      `${formatVolume(convertVolume(m3, "m^3", u.volume_unit as VolumeUnit), { precision: u.rounding_precision, locale: "en-GB" })} ${volumeUnitLabel(u.volume_unit as VolumeUnit)}`;

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/timber/${stack.id}`);
    await expect(page.getByTestId("history-panel").innerText()).resolves.toContain("No changes recorded yet.");
    await page.getByTestId("open-editor").click();
    await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor({ timeout: 15_000 });
    await page.waitForLoadState("networkidle");

    // Delete the biggest log (Edit mode, Delete key), add one in the sky (Logs mode, a click).
    const big = [...logs].sort((a, b) => b.r - a.r)[0];
    await page.keyboard.press("e");
    await page.mouse.click(...(Object.values(await screen(page, big.x, big.y)) as [number, number]));
    await page.keyboard.press("Delete");
    await page.keyboard.press("l");
    await page.mouse.click(...(Object.values(await screen(page, 60, 60)) as [number, number]));
    await page.keyboard.press("Enter");
    await page.getByTestId("editor-save").click();
    await expect
      .poll(() => page.getByTestId("measurement-editor").getAttribute("data-dirty"), { timeout: 15_000 })
      .toBe("false");

    const [entry] = await db()
      .selectFrom("measurement_history")
      .selectAll()
      .where("kind", "=", "timber")
      .where("measurement_id", "=", stack.id)
      .execute();
    const after = await db()
      .selectFrom("measurements")
      .select("volume")
      .where("id", "=", stack.id)
      .executeTakeFirstOrThrow();
    expect(entry.volume_before).toBeCloseTo(stack.volume, 9);
    expect(entry.volume_after).toBeCloseTo(after.volume, 12);
    const change = after.volume - stack.volume;
    expect(Math.abs(change)).toBeGreaterThan(0);

    await gotoHydrated(page, `/measurements/timber/${stack.id}`);
    const row = page.getByTestId(`history-${entry.id}`);
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain("Tiit Tamm");
    expect(text).toContain("Edited");
    expect(await page.getByTestId(`history-${entry.id}-logs`).innerText()).toMatch(
      /^Logs: 1 added, 1 removed, \d+ changed$/,
    );
    expect(await page.getByTestId(`history-${entry.id}-volume`).innerText()).toBe(
      `${change > 0 ? "+" : "−"}${fmt(Math.abs(change))}`,
    );
    await context.close();
  });
});
