import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevice, givePlan, webCookie } from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { containerOrg, REFERENCE } from "#tests/helpers/containers";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { deviceUpload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { db } from "~/utils/db.server";
import type { Browser } from "playwright-core";

// Container mode in the browser, as a port exporter works (docs/decisions/022-containers.md):
// create a bill of lading, add its containers, assign the measurements a device uploaded, lock
// them when the container is sealed, see the editor refuse to save (and the server refuse a
// PATCH forced past it), then export the tally sheet and read it back. Hand-computed: a 1 m
// reference 500 px long is 5 px/cm; radii 75, 40, 33 px are 30, 16, 13.2 cm, JAS 30, 16, 13 cm;
// at 4 m 0.36 + 0.1024 + 0.0676 = 0.53 m³ per measurement.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("containers in the browser", () => {
  it("creates a bill, adds containers, assigns and locks uploaded measurements, the editor refuses, the tally sheet reads back", async () => {
    const a = await containerOrg("admin");
    await givePlan(a.org.id);
    const device = await createDevice(a.org.id);
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#8a6a45" } })
      .jpeg()
      .toBuffer();
    const uploaded: number[] = [];
    for (const clientId of ["e2e-container-1", "e2e-container-2"]) {
      const res = await deviceUpload(
        device.token,
        {
          measurement: {
            client_id: clientId,
            taken_at: "2026-11-20T08:30:00Z",
            storage_id: a.storage.id,
            log_length: 4,
            logs: [
              { x: 100, y: 200, r: 75 },
              { x: 300, y: 200, r: 40 },
              { x: 500, y: 200, r: 33 },
            ],
            references: [REFERENCE],
          },
          photo: jpeg,
        },
        "/api/device/container_measurements",
      );
      expect(res.status, JSON.stringify(res.data)).toBe(201);
      uploaded.push(res.data.measurement.id);
    }

    const context = await signedInContext(browser, a.user.id);
    const page = await context.newPage();
    await gotoHydrated(page, "/measurements/container");

    // A bill of lading by name.
    await page.getByTestId("add-bill").click();
    await page.getByTestId("add-bill-form").locator('input[name="name"]').fill("BL-E2E-7");
    await page.getByTestId("add-bill-submit").click();
    await page.waitForURL(/open=\d+/);
    const bill = await db()
      .selectFrom("bill_of_ladings")
      .select("id")
      .where("organization_id", "=", a.org.id)
      .where("name", "=", "BL-E2E-7")
      .executeTakeFirstOrThrow();

    // Two containers, one name per line.
    await page.getByTestId("container-names").fill("MSKU 700001-1\nMSKU 700002-2");
    await page.getByTestId("add-containers-submit").click();
    const containersTable = page.getByTestId("containers-table");
    await containersTable.getByText("MSKU 700002-2").waitFor();
    const containers = await db()
      .selectFrom("containers")
      .select(["id", "name"])
      .where("bill_of_lading_id", "=", bill.id)
      .orderBy("name")
      .execute();
    expect(containers.map((c) => c.name)).toEqual(["MSKU 700001-1", "MSKU 700002-2"]);
    const target = containers[0].id;

    // The uploaded measurements are the cards without a container: tick both, assign them.
    for (const id of uploaded) await page.getByTestId(`select-${id}`).check();
    await page.getByTestId("batch-container").selectOption(String(target));
    await page.getByTestId("batch-assign").click();
    await expect.poll(() => page.getByTestId(`card-${uploaded[0]}`).count(), { timeout: 10_000 }).toBe(0);
    const assigned = await db()
      .selectFrom("container_measurements")
      .select(["id", "container_id"])
      .where("id", "in", uploaded)
      .execute();
    expect(assigned.every((m) => m.container_id === target)).toBe(true);
    // The bill now counts 6 logs and 1.06 m³.
    await expect.poll(() => page.getByTestId(`bill-${bill.id}`).textContent()).toMatch(/1[.,]06/);

    // The container's cards; the container is sealed: lock both.
    await gotoHydrated(page, `/measurements/container?open=${bill.id}&container=${target}`);
    for (const id of uploaded) await page.getByTestId(`select-${id}`).check();
    await page.getByTestId("batch-lock").click();
    await page.getByTestId(`locked-${uploaded[1]}`).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId(`locked-${uploaded[0]}`).count()).toBe(1);

    // The editor opens on the photo, says the measurement is locked and keeps Save disabled,
    // even after a log is deleted on the canvas.
    await gotoHydrated(page, `/measurements/container/${uploaded[0]}`);
    await page.getByTestId("open-editor").click();
    await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor({ timeout: 15_000 });
    await page.getByTestId("editor-save-locked").waitFor();
    expect(await page.getByTestId("editor-log-count").textContent()).toBe("3");
    const save = page.getByTestId("editor-save");
    expect(await save.isDisabled()).toBe(true);
    const at = await page.evaluate(() =>
      (
        window as unknown as { timberEditor: { toScreen(x: number, y: number): { x: number; y: number } } }
      ).timberEditor.toScreen(100, 200),
    );
    const box = (await page.getByTestId("editor-canvas").boundingBox())!;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.getByTestId("editor-selection").waitFor();
    await page.getByTestId("delete-selection").click();
    await expect.poll(() => page.getByTestId("measurement-editor").getAttribute("data-dirty")).toBe("true");
    expect(await save.isDisabled()).toBe(true);

    // The same PATCH sent past the disabled button: 409 locked, nothing written.
    const logs = await db()
      .selectFrom("container_measurement_logs")
      .select("id")
      .where("container_measurement_id", "=", uploaded[0])
      .orderBy("id")
      .execute();
    const forced = await page.evaluate(
      async ([id, logId]) => {
        const r = await fetch(`/api/web_app/containers/measurements/${id}`, {
          method: "PATCH",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ logs_removed: [logId] }),
        });
        return { status: r.status, body: await r.json() };
      },
      [uploaded[0], logs[0].id] as const,
    );
    expect(forced).toEqual({ status: 409, body: { error: "locked", errors: { _: ["containers:errors.locked"] } } });
    const kept = await db()
      .selectFrom("container_measurement_logs")
      .select("id")
      .where("container_measurement_id", "=", uploaded[0])
      .where("is_deleted", "=", false)
      .execute();
    expect(kept).toHaveLength(3);

    // The tally sheet from the bill's menu, made by the worker, read back.
    page.on("dialog", (d) => void d.accept());
    await gotoHydrated(page, "/measurements/container");
    await page.getByTestId(`bill-menu-${bill.id}`).click();
    await page.getByTestId("export-button-bill_of_lading_tally_sheet_excel").getByRole("button").click();
    const row = await waitFor(
      () =>
        db().selectFrom("exports").select(["id", "report_type"]).where("user_id", "=", a.user.id).executeTakeFirst(),
      { timeoutMs: 10_000, what: "the tally sheet export" },
    );
    expect(row.report_type).toBe("bill_of_lading_tally_sheet_excel");
    expect((await waitForExport(row.id)).status).toBe(1);
    const wb = await readXlsx((await download(row.id, { cookie: await webCookie(a.user.id) })).body);
    const tally = wb.getWorksheet("Tally sheet")!;
    const cells: unknown[][] = [];
    tally.eachRow((r, n) => {
      if (n > 1) cells.push([1, 2, 3, 4, 5, 6, 7].map((c) => r.getCell(c).value ?? null));
    });
    const [m1, m2] = [...uploaded].sort((x, y) => x - y);
    expect(cells.map((r) => r.slice(0, 5))).toEqual([
      ["MSKU 700001-1", m1, 1, 30, 4],
      ["MSKU 700001-1", m1, 2, 16, 4],
      ["MSKU 700001-1", m1, 3, 13, 4],
      ["MSKU 700001-1", m2, 4, 30, 4],
      ["MSKU 700001-1", m2, 5, 16, 4],
      ["MSKU 700001-1", m2, 6, 13, 4],
      ["MSKU 700001-1 — subtotal", null, null, null, null],
      ["BL-E2E-7 — Total", null, null, null, null],
    ]);
    expect(cells[6]![5]).toBe(6);
    expect(cells[7]![5]).toBe(6);
    expect(cells[7]![6]).toBeCloseTo(1.06, 10);
    await context.close();
  }, 120_000);
});
