import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiToken,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createUser,
  givePlan,
} from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { containerOrg, createContainerMeasurement } from "#tests/helpers/containers";
import { api } from "#tests/helpers/http";
import { convertVolume, formatVolume, volumeUnitLabel, type VolumeUnit } from "~/domain";
import { compareFormulas } from "~/domain/formula-comparison";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// Issue 24: the History panel is on every kind's detail page (one component on the kind seam).
// A truck measurement's loads and a container measurement's logs are changed through the API; the
// detail page shows the line with who, what and the signed volume change in the user's unit, and
// "Verify the history" recomputes the hash chain: verified, then failed once a row is altered in
// the database. The container's detail also shows every formula side by side.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function fmtFor(userId: number) {
  const u = await db()
    .selectFrom("users")
    .select(["volume_unit", "rounding_precision"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return (m3: number) =>
    `${formatVolume(convertVolume(m3, "m^3", u.volume_unit as VolumeUnit), { precision: u.rounding_precision, locale: "en-GB" })} ${volumeUnitLabel(u.volume_unit as VolumeUnit)}`;
}

async function lastEntry(kind: string, id: number) {
  return db()
    .selectFrom("measurement_history")
    .selectAll()
    .where("kind", "=", kind)
    .where("measurement_id", "=", id)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

/** Verifies the chain on the page (a GET form), then again after the row is altered in the database. */
async function verifyChain(page: Page, entryId: number) {
  await page.getByTestId("verify-history").click();
  const result = page.getByTestId("history-verification");
  await expect.poll(() => result.getAttribute("data-ok"), { timeout: 15_000 }).toBe("true");
  await db().updateTable("measurement_history").set({ volume_after: 123 }).where("id", "=", entryId).execute();
  await page.getByTestId("verify-history").click();
  await expect.poll(() => result.getAttribute("data-ok"), { timeout: 15_000 }).toBe("false");
  expect(await result.innerText()).toContain(`entry ${entryId}`);
}

describe("the History panel on every kind", () => {
  it("truck: a load made higher shows with its volume change, and the chain verifies", async () => {
    const org = await createOrganization({ name: "Truck History" });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin", name: "Kalle Kask" });
    const storage = await createStorage(org.id, { name: "Gate" });
    const truck = await createTruckMeasurement(org.id, storage.id);
    const load = await db()
      .selectFrom("truck_loads")
      .select("id")
      .where("truck_measurement_id", "=", truck.id)
      .orderBy("load_index")
      .executeTakeFirstOrThrow();
    const res = await api(`/api/web_app/truck_measurements/${truck.id}`, {
      token: await apiToken(user.id),
      method: "PATCH",
      json: { loads: [{ id: load.id, height: 2.6 }] },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    const entry = await lastEntry("truck", truck.id);
    // 0.1 m higher x 2.4 m wide x 3 m long x 0.68 solid: +0.4896 m³.
    expect(entry.volume_after! - entry.volume_before!).toBeCloseTo(0.4896, 9);
    const fmt = await fmtFor(user.id);

    const context = await signedInContext(browser, user.id);
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/truck/${truck.id}`);
    const row = page.getByTestId(`history-${entry.id}`);
    await row.waitFor();
    expect(await row.innerText()).toContain("Kalle Kask");
    expect(await row.innerText()).toContain("Edited");
    expect(await page.getByTestId(`history-${entry.id}-loads`).innerText()).toBe(
      "Loads: 0 added, 0 removed, 1 changed",
    );
    expect(await page.getByTestId(`history-${entry.id}-volume`).innerText()).toBe(
      `+${fmt(entry.volume_after! - entry.volume_before!)}`,
    );
    expect(await page.getByTestId(`history-${entry.id}-hash`).innerText()).toBe(entry.hash!.slice(0, 12));
    await verifyChain(page, entry.id);
    await context.close();
  });

  it("container: a log removed shows with its volume change and the lock, and the chain verifies", async () => {
    const a = await containerOrg("measurer");
    await givePlan(a.org.id);
    await db().updateTable("users").set({ name: "Liis Lepp" }).where("id", "=", a.user.id).execute();
    const id = await createContainerMeasurement(a.org.id, a.storage.id);
    const W = `/api/web_app/containers/measurements/${id}`;
    const logs = (await api(`${W}?extra_fields=logs`, { token: a.token })).data.data.logs;
    // The 13.2 cm log (0.0676 m³ at JAS) removed.
    const removed = await api(W, { token: a.token, method: "PATCH", json: { logs_removed: [logs[2].id] } });
    expect(removed.status, JSON.stringify(removed.data)).toBe(200);
    const edit = await lastEntry("container", id);
    expect(edit.volume_after! - edit.volume_before!).toBeCloseTo(-0.0676, 9);
    await api(W, { token: a.token, method: "PATCH", json: { locked_at: "2026-11-22T10:00:00Z" } });
    const lock = await lastEntry("container", id);
    const fmt = await fmtFor(a.user.id);

    const context = await signedInContext(browser, a.user.id);
    const page = await context.newPage();
    await gotoHydrated(page, `/measurements/container/${id}`);
    await page.getByTestId(`history-${edit.id}`).waitFor();
    // Newest first: the lock above the edit.
    const order = await page
      .locator("[data-testid=history-panel] tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
    expect(order).toEqual(["locked", "edited"]);
    expect(await page.getByTestId(`history-${lock.id}`).innerText()).toContain("Locked");
    expect(await page.getByTestId(`history-${edit.id}`).innerText()).toContain("Liis Lepp");
    expect(await page.getByTestId(`history-${edit.id}-logs`).innerText()).toBe("Logs: 0 added, 1 removed, 0 changed");
    expect(await page.getByTestId(`history-${edit.id}-volume`).innerText()).toBe(
      `−${fmt(edit.volume_before! - edit.volume_after!)}`,
    );
    await verifyChain(page, edit.id);

    // Every formula side by side (issue 24): JAS, the container's own formula, is the stored
    // volume (the two logs left: 0.36 + 0.1024 m³); the others are app/domain's from the logs.
    const m = await db()
      .selectFrom("container_measurements")
      .select("volume")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(m.volume).toBeCloseTo(0.4624, 9);
    const rows = compareFormulas({ diametersCm: [30, 16], lengthM: 4, ownFormula: "jas" });
    const table = page.getByTestId("formula-table");
    await table.waitFor();
    expect(await page.getByTestId("formula-jas").getAttribute("class")).toContain("row-selected");
    expect(await page.getByTestId("formula-jas-total").innerText()).toBe(fmt(m.volume));
    const cylinder = rows.find((r) => r.formula === "cylinder")!;
    expect(await page.getByTestId("formula-cylinder-total").innerText()).toBe(fmt(cylinder.totalM3!));
    expect(await page.getByTestId("formula-cylinder-difference").innerText()).toBe(
      `${cylinder.differenceM3! < 0 ? "−" : "+"}${fmt(Math.abs(cylinder.differenceM3!))}`,
    );
    await context.close();
  });
});
