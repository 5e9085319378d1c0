import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "~/i18n";
import { EDITOR_KINDS } from "./editor-kinds";
import { addLog, changeLogs, docFromLoaded, MODE_KEYS, setReference } from "./editor-model";

const timberLocale = (lng: string) =>
  JSON.parse(fs.readFileSync(new URL(`../../../locales/${lng}/timber.json`, import.meta.url), "utf8"));
const lookup = (tree: unknown, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

describe("editor kinds", () => {
  it.each(Object.entries(EDITOR_KINDS))("%s: opens in one of its modes, each with a key and help text", (_, spec) => {
    expect(spec.modes[0]).toBe("VIEW");
    expect(spec.modes).toContain(spec.startMode);
    expect(new Set(spec.modes.map((m) => MODE_KEYS[m])).size).toBe(spec.modes.length);
    for (const lng of SUPPORTED_LANGUAGES) {
      const locale = timberLocale(lng);
      for (const mode of spec.modes) expect(lookup(locale, spec.helpKey(mode)), `${lng} ${mode}`).toBeTruthy();
    }
  });

  it("deleting a selection removes the kind's own shapes, and Save sends their removal", () => {
    const loaded = docFromLoaded({
      logs: [{ id: 1, x: 10, y: 10, r: 5, is_deleted: false, modified_at: null, cull_id: null, assortment_id: null }],
      planks: [{ id: 7, x: 0, y: 0, width: 10, height: 4, is_deleted: false, modified_at: null }],
      formula: "cylinder",
    });
    const logs = EDITOR_KINDS.logs;
    const afterLogs = logs.remove(loaded, new Set([loaded.logs[0].key]));
    expect(logs.patch(loaded, afterLogs)).toEqual({ logs_removed: [1] });
    const planks = EDITOR_KINDS.planks;
    const afterPlanks = planks.remove(loaded, new Set([loaded.planks[0].key]));
    expect(planks.patch(loaded, afterPlanks)).toEqual({ planks_removed: [7] });
  });

  it("a container measurement's Save sends logs by position and radius only, never contours or culls", () => {
    const loaded = docFromLoaded({
      logs: [
        { id: 1, x: 10, y: 10, r: 5, is_deleted: false, modified_at: null, cull_id: null, assortment_id: null },
        { id: 2, x: 30, y: 10, r: 6, is_deleted: false, modified_at: null, cull_id: null, assortment_id: null },
      ],
      references: [{ x1: 0, y1: 0, x2: 100, y2: 0, size: 1 }],
      formula: "jas",
    });
    const spec = EDITOR_KINDS.containerLogs;
    expect(spec.modes).not.toContain("MEASUREMENT_AREA");
    expect(spec.modes).not.toContain("LOAD_LINES");
    let doc = addLog(loaded, { x: 50, y: 50, r: 7 });
    doc = changeLogs(doc, new Map([[loaded.logs[0].key, { r: 8 }]]));
    doc = spec.remove(doc, new Set([loaded.logs[1].key]));
    doc = setReference(doc, 0, { x1: 0, y1: 0, x2: 100, y2: 0, size: 0.5 });
    doc = {
      ...doc,
      area: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
      ],
    };
    expect(spec.patch(loaded, doc)).toEqual({
      logs: [
        { id: 1, r: 8 },
        { x: 50, y: 50, r: 7 },
      ],
      logs_removed: [2],
      references: [{ x1: 0, y1: 0, x2: 100, y2: 0, size: 0.5 }],
    });
    expect(spec.patch(loaded, loaded)).toEqual({});
  });
});
