import { describe, expect, it } from "vitest";
import {
  addLog,
  addPlank,
  changeLogs,
  changePlanks,
  commit,
  deleteVertex,
  docFromLoaded,
  historyOf,
  insertVertex,
  lumberPatch,
  redo,
  removeLogs,
  removePlanks,
  setArea,
  setFormula,
  setLoadLines,
  setReference,
  timberPatch,
  typicalRadiusNear,
  undo,
} from "./editor-model";
import { previewLumber, previewTimber } from "./editor-preview";

const log = (
  id: number,
  x: number,
  y: number,
  r: number,
  extra: Partial<{
    is_deleted: boolean;
    modified_at: string | null;
    cull_id: number | null;
    assortment_id: number | null;
  }> = {},
) => ({
  id,
  x,
  y,
  r,
  is_deleted: false,
  modified_at: null,
  cull_id: null,
  assortment_id: null,
  ...extra,
});
const reference = { x1: 0, y1: 0, x2: 400, y2: 0, size: 1 }; // 4 px per cm

describe("the editor document", () => {
  const loaded = docFromLoaded({
    logs: [
      log(1, 100, 100, 40),
      log(2, 200, 100, 60, { modified_at: "2026-11-01T00:00:00Z" }),
      log(3, 300, 100, 50, { is_deleted: true }),
    ],
    references: [reference],
    area: [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
    ],
    formula: "cylinder",
  });

  it("keeps only kept logs, and marks those a person changed before as modified", () => {
    expect(loaded.logs.map((l) => [l.id, l.modified])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it("sends nothing when nothing changed", () => {
    expect(timberPatch(loaded, loaded)).toEqual({});
  });

  it("sends moved and resized logs by id with only what changed, new logs without id, removed ids, and the new formula", () => {
    let doc = changeLogs(loaded, new Map([["l1", { x: 110 }]]));
    doc = changeLogs(doc, new Map([["l2", { r: 66, assortmentId: 7 }]]));
    doc = addLog(doc, { x: 500, y: 120, r: 45 });
    doc = removeLogs(doc, new Set(["l1"]));
    doc = setFormula(doc, "huber");
    expect(timberPatch(loaded, doc)).toEqual({
      logs: [
        { id: 2, r: 66, wood_characteristic_id: 7 },
        { x: 500, y: 120, r: 45, cull_id: null, wood_characteristic_id: null },
      ],
      logs_removed: [1],
      volume_formula: "huber",
    });
    expect(doc.logs.find((l) => l.id === 2)!.modified).toBe(true);
  });

  it("a log added then removed in the same session sends nothing", () => {
    const added = addLog(loaded, { x: 1, y: 1, r: 1 });
    const key = added.logs[added.logs.length - 1].key;
    expect(timberPatch(loaded, removeLogs(added, new Set([key])))).toEqual({});
  });

  it("sends references, the area (null when fewer than 3 points remain) and load lines of at least 2 points", () => {
    let doc = setReference(loaded, 0, { ...reference, size: 0.5 });
    doc = setArea(doc, deleteVertex(doc.area!, 0));
    doc = setLoadLines(doc, [
      [{ x: 1, y: 2 }],
      [
        { x: 1, y: 1 },
        { x: 5, y: 1 },
      ],
    ]);
    expect(timberPatch(loaded, doc)).toEqual({
      references: [{ ...reference, size: 0.5 }],
      measurement_area: null,
      load_lines: [
        [
          { x: 1, y: 1 },
          { x: 5, y: 1 },
        ],
      ],
    });
  });

  it("inserts, moves and deletes polygon vertices", () => {
    const square = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 0, y: 10 },
    ];
    expect(insertVertex(square, 0, { x: 5, y: 0 })).toEqual([
      { x: 0, y: 0 },
      { x: 5, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 0, y: 10 },
    ]);
    expect(insertVertex(square, 3, { x: 0, y: 5 })).toEqual([...square, { x: 0, y: 5 }]);
    expect(deleteVertex(square, 1)).toEqual([
      { x: 0, y: 0 },
      { x: 10, y: 10 },
      { x: 0, y: 10 },
    ]);
  });

  it("undoes and redoes every change, and a new change drops the redo branch", () => {
    let h = historyOf(loaded);
    h = commit(h, addLog(h.present, { x: 1, y: 1, r: 10 }));
    h = commit(h, removeLogs(h.present, new Set(["l1"])));
    expect(h.present.logs).toHaveLength(2);
    h = undo(h);
    expect(h.present.logs).toHaveLength(3);
    h = undo(h);
    expect(h.present).toBe(loaded);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present.logs).toHaveLength(3);
    h = commit(h, setFormula(h.present, "smalian"));
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
  });
});

describe("planks", () => {
  const loaded = docFromLoaded({
    planks: [
      { id: 1, x: 0, y: 0, width: 50, height: 20, is_deleted: false, modified_at: null },
      { id: 2, x: 60, y: 0, width: 50, height: 20, is_deleted: false, modified_at: null },
      { id: 3, x: 120, y: 0, width: 50, height: 20, is_deleted: true, modified_at: null },
    ],
  });

  it("draws rectangles from any corner as top-left plus a positive size", () => {
    const doc = addPlank(loaded, { x: 100, y: 80, width: -40, height: -30 });
    expect(doc.planks[2]).toMatchObject({ x: 60, y: 50, width: 40, height: 30, id: null, modified: true });
  });

  it("sends moved planks whole, new ones without id and removed ids", () => {
    let doc = changePlanks(loaded, new Map([["p1", { x: 5 }]]));
    doc = addPlank(doc, { x: 0, y: 30, width: 50, height: 20 });
    doc = removePlanks(doc, new Set(["p2"]));
    expect(lumberPatch(loaded, doc)).toEqual({
      planks: [
        { id: 1, x: 5, y: 0, width: 50, height: 20 },
        { x: 0, y: 30, width: 50, height: 20 },
      ],
      planks_removed: [2],
    });
  });

  it("previews the plank count and the volume from the product's section", () => {
    // 2 planks of 4200 × 150 × 50 mm: 2 × 0.0315 m³.
    expect(previewLumber(loaded, { lengthMm: 4200, widthMm: 150, heightMm: 50 })).toEqual({
      plankCount: 2,
      volumeM3: 0.063,
    });
    expect(previewLumber(loaded, null).volumeM3).toBeNull();
  });
});

describe("a new log's size", () => {
  it("is the median radius of the nearest logs, else the fallback", () => {
    const logs = [
      { x: 0, y: 0, r: 10 },
      { x: 30, y: 0, r: 12 },
      { x: 60, y: 0, r: 30 },
      { x: 1000, y: 0, r: 80 },
    ];
    expect(typicalRadiusNear(logs, { x: 30, y: 10 }, 5, 3)).toBe(12);
    expect(typicalRadiusNear(logs, { x: 30, y: 10 }, 5, 4)).toBe(21);
    expect(typicalRadiusNear([], { x: 0, y: 0 }, 5)).toBe(5);
  });
});

describe("the live preview", () => {
  it("gives each log's diameter and the total as the server computes them", () => {
    // 4 px per cm: radius 40 px is a 20 cm log; cylinder of 4 m: π/4 × 0.2² × 4 = 0.125664 m³.
    const doc = docFromLoaded({
      logs: [log(1, 100, 100, 40), log(2, 300, 100, 40)],
      references: [reference],
      formula: "cylinder",
    });
    const p = previewTimber(doc, { logLengthM: 4, coefficient: null });
    expect(p.diameters.get("l1")).toBeCloseTo(20, 9);
    expect(p.logCount).toBe(2);
    expect(p.volumeM3).toBeCloseTo(2 * (Math.PI / 4) * 0.04 * 4, 9);
    expect(p.averageDiameterCm).toBeCloseTo(20, 9);
  });

  it("has no volume without a reference, and ignores a reference of size 0 being typed", () => {
    const doc = docFromLoaded({
      logs: [log(1, 100, 100, 40)],
      references: [{ ...reference, size: 0 }],
      formula: "cylinder",
    });
    const p = previewTimber(doc, { logLengthM: 4, coefficient: null });
    expect(p.volumeM3).toBeNull();
    expect(p.error).toBeNull();
  });

  it("with an area and no logs gives the contour volume from the coefficient", () => {
    // 400 × 400 px = 1 m × 1 m; 3 m logs; coefficient 0.65: 3 × 0.65 = 1.95 m³ solid.
    const doc = docFromLoaded({
      references: [reference],
      area: [
        { x: 0, y: 0 },
        { x: 400, y: 0 },
        { x: 400, y: 400 },
        { x: 0, y: 400 },
      ],
    });
    const p = previewTimber(doc, { logLengthM: 3, coefficient: 0.65 });
    expect(p.areaM2).toBeCloseTo(1, 9);
    expect(p.stackedM3).toBeCloseTo(3, 9);
    expect(p.volumeM3).toBeCloseTo(1.95, 9);
  });
});
