import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLumberMeasurement,
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  givePlan,
} from "#tests/factories";
import { gotoHydrated, launchBrowser, signedInContext } from "#tests/helpers/browser";
import { computeTimberMeasurement, convertVolume, formatVolume, volumeUnitLabel, type VolumeUnit } from "~/domain";
import { db } from "~/utils/db.server";
import type { Browser, Page } from "playwright-core";

// The measurement editor driven with the mouse and keyboard as a measurer would, against the
// built app and real databases: every change is checked in the preview, then in MySQL after Save.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openEditor(userId: number, measurementId: number, kind: "timber" | "lumber" = "timber") {
  const context = await signedInContext(browser, userId);
  const page = await context.newPage();
  await gotoHydrated(page, `/measurements/${kind}/${measurementId}`);
  await page.getByTestId("open-editor").click();
  await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor({ timeout: 15_000 });
  await page.waitForLoadState("networkidle");
  return { context, page };
}

/** Page coordinates of an image point, through the editor's own view transform. */
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

async function zoom(page: Page) {
  return page
    .evaluate(() => {
      const e = (window as unknown as { timberEditor: { toScreen(x: number, y: number): { x: number } } }).timberEditor;
      return e.toScreen(100, 0).x - e.toScreen(0, 0).x;
    })
    .then((px) => px / 100);
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

async function click(page: Page, at: { x: number; y: number }, modifiers: { alt?: boolean; shift?: boolean } = {}) {
  if (modifiers.alt) await page.keyboard.down("Alt");
  if (modifiers.shift) await page.keyboard.down("Shift");
  await page.mouse.click(at.x, at.y);
  if (modifiers.alt) await page.keyboard.up("Alt");
  if (modifiers.shift) await page.keyboard.up("Shift");
}

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
const count = async (page: Page) => Number(await text(page, "editor-log-count"));

async function dbLogs(measurementId: number) {
  return db()
    .selectFrom("logs")
    .select(["id", "x", "y", "r", "d", "v", "is_deleted", "modified_at"])
    .where("measurement_id", "=", measurementId)
    .orderBy("id")
    .execute();
}

describe("the measurement editor", () => {
  it("moves, resizes, adds and deletes logs, redraws the reference, draws the area and load lines, undoes and redoes, saves and keeps the server's numbers", async () => {
    const org = await createOrganization({ name: "Editor Forest" });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id, { name: "Landing" });
    const stack = await createMeasuredStack(org.id, storage.id, { seed: 31, lengthM: 4 });
    const before = await dbLogs(stack.id);
    const [l0, l1, l2] = before;
    const ref = await db()
      .selectFrom("measurement_references")
      .selectAll()
      .where("measurement_id", "=", stack.id)
      .executeTakeFirstOrThrow();
    const u = await db()
      .selectFrom("users")
      .select(["volume_unit", "rounding_precision"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    const fmt = (m3: number) =>
      `${formatVolume(convertVolume(m3, "m^3", u.volume_unit as VolumeUnit), { precision: u.rounding_precision, locale: "en-GB" })} ${volumeUnitLabel(u.volume_unit as VolumeUnit)}`;

    const sawlog = await db()
      .insertInto("assortments")
      .values({ organization_id: org.id, name: "Spruce sawlog", custom_fields: "{}" })
      .executeTakeFirstOrThrow();
    const rot = await db()
      .insertInto("culls")
      .values({ organization_id: org.id, reason: "Rot" })
      .executeTakeFirstOrThrow();
    const { context, page } = await openEditor(user.id, stack.id);
    expect(await count(page)).toBe(stack.logsCount);
    expect(await text(page, "editor-volume")).toBe(fmt(stack.volume));
    expect(await page.getByTestId("measurement-editor").getAttribute("data-dirty")).toBe("false");
    const z = await zoom(page);

    // Move l0 by dragging its centre 30 px right and 20 px down (screen).
    const c0 = await screen(page, l0.x, l0.y);
    await drag(page, c0, { x: c0.x + 30, y: c0.y + 20 });
    await expect.poll(() => page.getByTestId("measurement-editor").getAttribute("data-dirty")).toBe("true");
    expect(await count(page)).toBe(stack.logsCount);

    // Resize l1 by dragging its rim 12 px outwards; selecting it shows the new diameter.
    const rim = await screen(page, l1.x + l1.r, l1.y);
    await drag(page, rim, { x: rim.x + 12, y: rim.y });
    await click(page, await screen(page, l1.x, l1.y));
    const d1 = Number((await text(page, "selected-diameter")).replace(" cm", ""));
    expect(d1).toBeGreaterThan(l1.d + 1);

    // The selected log's assortment and cull.
    await page.getByTestId("selected-assortment").selectOption({ label: "Spruce sawlog" });
    await page.getByTestId("selected-cull").selectOption({ label: "Rot" });

    // Logs mode (key L): a click in the sky above the pile adds a log there.
    await page.keyboard.press("l");
    expect(await page.getByTestId("mode-LOGS").getAttribute("aria-pressed")).toBe("true");
    await click(page, await screen(page, 60, 60));
    await expect.poll(() => count(page)).toBe(stack.logsCount + 1);

    // Edit mode: select l2 and delete it with the Delete key.
    await page.keyboard.press("e");
    await click(page, await screen(page, l2.x, l2.y));
    await page.keyboard.press("Delete");
    await expect.poll(() => count(page)).toBe(stack.logsCount);

    // Box select the logs whose centres lie in a band, delete them with the button; undo, redo.
    const band = before.filter(
      (l) => l.id !== l2.id && l.id !== l0.id && l.id !== l1.id && l.x > 600 && l.x < 900 && l.y > 550,
    );
    expect(band.length).toBeGreaterThan(0);
    await drag(page, await screen(page, 600, 745), await screen(page, 900, 550));
    expect(await text(page, "editor-selection")).toContain(`Selected logs: ${band.length}`);
    await page.getByTestId("delete-selection").click();
    await expect.poll(() => count(page)).toBe(stack.logsCount - band.length);
    await page.getByTestId("editor-undo").click();
    await expect.poll(() => count(page)).toBe(stack.logsCount);
    await page.keyboard.press("Control+Shift+Z");
    await expect.poll(() => count(page)).toBe(stack.logsCount - band.length);

    // Reference mode: redraw the stick over half its length, so every diameter doubles...
    await page.keyboard.press("r");
    const avgBefore = parseFloat(await text(page, "editor-average-diameter"));
    const half = { x: (ref.x1 + ref.x2) / 2, y: ref.y1 };
    await drag(page, await screen(page, ref.x1, ref.y1), await screen(page, half.x, half.y));
    await expect
      .poll(async () => parseFloat(await text(page, "editor-average-diameter")))
      .toBeGreaterThan(avgBefore * 1.9);
    // ...then type its real size, 50 cm: the scale is the original one again.
    await page.getByTestId("reference-size").fill("50");
    await expect
      .poll(async () => Math.abs(parseFloat(await text(page, "editor-average-diameter")) - avgBefore))
      .toBeLessThan(0.15);

    // Measurement area: four corners around the pile, closed by clicking the first; move one, insert one.
    await page.getByTestId("mode-MEASUREMENT_AREA").click();
    const corners = [
      { x: 60, y: 160 },
      { x: 960, y: 160 },
      { x: 960, y: 700 },
      { x: 60, y: 700 },
    ];
    for (const c of corners) await click(page, await screen(page, c.x, c.y));
    await click(page, await screen(page, corners[0].x, corners[0].y));
    await page.getByTestId("editor-area").waitFor();
    const area1 = parseFloat(await text(page, "editor-area"));
    expect(area1).toBeCloseTo((900 * 540) / 400 / 400 / 1, 1); // 4 px per cm: 900×540 px = 2.25 m × 1.35 m
    await drag(page, await screen(page, 960, 700), await screen(page, 990, 730));
    await expect.poll(async () => parseFloat(await text(page, "editor-area"))).toBeGreaterThan(area1);
    await click(page, await screen(page, 510, 160)); // on the top edge: a new vertex
    expect(Number(await text(page, "editor-coefficient"))).toBeGreaterThan(0);

    // Load lines: three clicks and Enter.
    await page.getByTestId("mode-LOAD_LINES").click();
    for (const p of [
      { x: 80, y: 150 },
      { x: 500, y: 140 },
      { x: 940, y: 150 },
    ])
      await click(page, await screen(page, p.x, p.y));
    await page.keyboard.press("Enter");

    // A failed save keeps the edits and says so.
    await page.route(`**/api/web_app/measurements/${stack.id}`, (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "boom" }) }),
    );
    await page.getByTestId("editor-save").click();
    await page.locator(".toast-error").filter({ hasText: "Saving failed" }).first().waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("measurement-editor").getAttribute("data-dirty")).toBe("true");
    await page.unroute(`**/api/web_app/measurements/${stack.id}`);

    // Save for real: the server recomputes and its numbers replace the preview.
    await page.getByTestId("editor-save").click();
    await expect
      .poll(() => page.getByTestId("measurement-editor").getAttribute("data-dirty"), { timeout: 15_000 })
      .toBe("false");
    const m = await db().selectFrom("measurements").selectAll().where("id", "=", stack.id).executeTakeFirstOrThrow();
    const after = await dbLogs(stack.id);
    const kept = after.filter((l) => !l.is_deleted);
    expect(m.logs_count).toBe(stack.logsCount - band.length);
    expect(kept.length).toBe(m.logs_count);
    const moved = after.find((l) => l.id === l0.id)!;
    expect(moved.x).toBeCloseTo(l0.x + 30 / z, 0);
    expect(moved.y).toBeCloseTo(l0.y + 20 / z, 0);
    expect(moved.modified_at).not.toBeNull();
    expect(after.find((l) => l.id === l1.id)!.r).toBeCloseTo(l1.r + 12 / z, 0);
    const graded = await db()
      .selectFrom("logs")
      .select(["assortment_id", "cull_id"])
      .where("id", "=", l1.id)
      .executeTakeFirstOrThrow();
    expect(graded).toEqual({ assortment_id: Number(sawlog.insertId), cull_id: Number(rot.insertId) });
    expect(after.find((l) => l.id === l2.id)!.is_deleted).toBe(true);
    const added = after.find((l) => !before.some((b) => b.id === l.id))!;
    expect(added.x).toBeCloseTo(60, 0);
    expect(added.y).toBeCloseTo(60, 0);
    const refs = await db()
      .selectFrom("measurement_references")
      .selectAll()
      .where("measurement_id", "=", stack.id)
      .execute();
    expect(refs).toHaveLength(1);
    expect(refs[0].size).toBeCloseTo(0.5, 6);
    expect(refs[0].x2 - refs[0].x1).toBeCloseTo(200, -0.5);
    expect(m.measurement_area).toHaveLength(5);
    expect(m.load_lines).toHaveLength(1);
    expect(m.load_lines![0]).toHaveLength(3);
    // The stored volume is the domain's, from the stored logs and reference.
    const expected = computeTimberMeasurement({
      logs: after.map((l) => ({ x: l.x, y: l.y, r: l.r, isDeleted: l.is_deleted })),
      references: refs,
      formula: "cylinder",
      logLengthM: 4,
      measurementArea: m.measurement_area,
    });
    expect(m.volume).toBeCloseTo(expected!.volumeM3, 9);
    expect(m.coefficient).toBe(expected!.coefficient);
    await expect.poll(() => text(page, "editor-volume")).toBe(fmt(m.volume));
    expect(await text(page, "editor-state")).toBe("Saved numbers");

    // Reload: the change is there, with the server's volume.
    await page.reload();
    await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor();
    expect(await count(page)).toBe(m.logs_count);
    expect(await text(page, "editor-volume")).toBe(fmt(m.volume));
    await context.close();
  });

  it("warns before leaving with unsaved changes", async () => {
    const org = await createOrganization();
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    const stack = await createMeasuredStack(org.id, storage.id, { seed: 5 });
    const [l0] = await dbLogs(stack.id);
    const { context, page } = await openEditor(user.id, stack.id);
    const c = await screen(page, l0.x, l0.y);
    await drag(page, c, { x: c.x + 25, y: c.y });
    await page.getByTestId("editor-back").click();
    await page.getByTestId("unsaved-dialog").waitFor();
    await page.getByTestId("unsaved-stay").click();
    expect(new URL(page.url()).pathname).toBe(`/measurements/timber/${stack.id}/edit`);
    await page.getByTestId("editor-back").click();
    await page.getByTestId("unsaved-leave").click();
    await page.waitForURL(`**/measurements/timber/${stack.id}`);
    // Nothing was saved.
    expect((await dbLogs(stack.id))[0].x).toBe(l0.x);
    await context.close();
  });

  it("is read-only for a viewer, and without JavaScript the pages say the editor needs it and still show the logs", async () => {
    const org = await createOrganization();
    await givePlan(org.id);
    const viewer = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id);
    const stack = await createMeasuredStack(org.id, storage.id, { seed: 9 });
    const { context, page } = await openEditor(viewer.id, stack.id);
    await page.getByTestId("editor-read-only").waitFor();
    expect(await page.locator("[data-testid^=mode-]").count()).toBe(1);
    expect(await page.getByTestId("editor-save").count()).toBe(0);
    // Dragging a log in view mode pans; nothing becomes a change.
    const [l0] = await dbLogs(stack.id);
    const c = await screen(page, l0.x, l0.y);
    await drag(page, c, { x: c.x + 40, y: c.y });
    expect(await page.getByTestId("measurement-editor").getAttribute("data-dirty")).toBe("false");

    // Zoom: the wheel zooms in around the pointer; two fingers spread apart zoom in on a tablet; F fits.
    const fitted = await zoom(page);
    const box = (await page.getByTestId("editor-canvas").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await expect.poll(() => zoom(page)).toBeGreaterThan(fitted * 1.5);
    await page.keyboard.press("f");
    await expect.poll(() => zoom(page)).toBeCloseTo(fitted, 5);
    await page.getByTestId("editor-canvas").evaluate((canvas) => {
      const r = canvas.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const fire = (type: string, id: number, x: number) =>
        canvas.dispatchEvent(
          new PointerEvent(type, {
            pointerId: id,
            pointerType: "touch",
            isPrimary: id === 1,
            clientX: x,
            clientY: cy,
            bubbles: true,
          }),
        );
      fire("pointerdown", 1, cx - 50);
      fire("pointerdown", 2, cx + 50);
      for (let i = 1; i <= 10; i++) {
        fire("pointermove", 1, cx - 50 - 5 * i);
        fire("pointermove", 2, cx + 50 + 5 * i);
      }
      fire("pointerup", 1, cx - 100);
      fire("pointerup", 2, cx + 100);
    });
    expect(await zoom(page)).toBeCloseTo(fitted * 2, 5);
    await context.close();

    const noJs = await signedInContext(browser, viewer.id, { javaScriptEnabled: false });
    const p = await noJs.newPage();
    for (const path of [`/measurements/timber/${stack.id}`, `/measurements/timber/${stack.id}/edit`]) {
      await gotoHydrated(p, path);
      expect(await p.getByTestId("editor-needs-js").innerText()).toContain("needs JavaScript");
      expect(await p.getByTestId("overlay-log").count()).toBe(stack.logsCount);
    }
    await noJs.close();
  });

  it("draws, moves, resizes and deletes lumber planks, undoes and redoes, saves the plank count and volume", async () => {
    const org = await createOrganization();
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    // 4200 × 150 × 50 mm boards: 0.0315 m³ each.
    const lumber = await createLumberMeasurement(org.id, storage.id, {
      seed: 4,
      product: { plank_length: 4200, plank_width: 150, plank_height: 50 },
    });
    const [p0, p1, p2] = lumber.planks;
    const plankCount = () => text(page, "editor-plank-count").then(Number);
    const { context, page } = await openEditor(user.id, lumber.id, "lumber");
    expect(await plankCount()).toBe(lumber.plankCount);
    expect(await page.getByTestId("mode-PLANKS").getAttribute("aria-pressed")).toBe("true");
    const z = await zoom(page);

    // Draw a plank in the empty space above the package.
    await drag(page, await screen(page, 100, 30), await screen(page, 175, 55));
    await expect.poll(plankCount).toBe(lumber.plankCount + 1);
    // Move p0 (drag its middle) and resize p1 (drag its bottom-right corner).
    const mid = await screen(page, p0.x + p0.width / 2, p0.y + p0.height / 2);
    await drag(page, mid, { x: mid.x + 20, y: mid.y - 10 });
    const corner = await screen(page, p1.x + p1.width, p1.y + p1.height);
    await drag(page, corner, { x: corner.x + 9, y: corner.y + 6 });
    // Select p2 and delete it; undo brings it back, redo removes it again.
    await click(page, await screen(page, p2.x + p2.width / 2, p2.y + p2.height / 2));
    await page.keyboard.press("Delete");
    await expect.poll(plankCount).toBe(lumber.plankCount);
    await page.keyboard.press("Control+z");
    await expect.poll(plankCount).toBe(lumber.plankCount + 1);
    await page.keyboard.press("Control+y");
    await expect.poll(plankCount).toBe(lumber.plankCount);
    expect(await text(page, "editor-volume")).toBe(
      `${formatVolume(lumber.plankCount * 0.0315, { precision: 2, locale: "en-GB" })} m³`,
    );

    await page.getByTestId("editor-save").click();
    await expect
      .poll(() => page.getByTestId("measurement-editor").getAttribute("data-dirty"), { timeout: 15_000 })
      .toBe("false");
    const row = await db()
      .selectFrom("lumber_measurements")
      .selectAll()
      .where("id", "=", lumber.id)
      .executeTakeFirstOrThrow();
    const planks = await db()
      .selectFrom("planks")
      .selectAll()
      .where("lumber_measurement_id", "=", lumber.id)
      .orderBy("id")
      .execute();
    expect(row.plank_count).toBe(lumber.plankCount);
    expect(row.volume).toBeCloseTo(lumber.plankCount * 0.0315, 9);
    expect(planks.filter((p) => !p.is_deleted)).toHaveLength(lumber.plankCount);
    const moved = planks.find((p) => p.id === p0.id)!;
    expect(moved.x).toBeCloseTo(p0.x + 20 / z, 0);
    expect(moved.y).toBeCloseTo(p0.y - 10 / z, 0);
    const resized = planks.find((p) => p.id === p1.id)!;
    expect(resized.width).toBeCloseTo(p1.width + 9 / z, 0);
    expect(resized.height).toBeCloseTo(p1.height + 6 / z, 0);
    expect(planks.find((p) => p.id === p2.id)!.is_deleted).toBe(true);
    const drawn = planks.find((p) => !lumber.planks.some((q) => q.id === p.id))!;
    expect(drawn).toMatchObject({ is_deleted: false });
    expect(drawn.x).toBeCloseTo(100, 0);
    expect(drawn.width).toBeCloseTo(75, 0);

    await page.reload();
    await page.locator("[data-testid=editor-frame][data-ready=true]").waitFor();
    expect(await plankCount()).toBe(lumber.plankCount);
    await context.close();
  });
});
