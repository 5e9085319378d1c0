import type { Point, ReferenceLine } from "~/domain";

// The measurement editor's document and its history, as plain data. Every edit is a pure function
// from one document to the next, so undo and redo are a matter of keeping snapshots, and what
// Save sends is the difference between the loaded document and the present one.

export const EDITOR_MODES = ["VIEW", "EDIT", "REFERENCE", "LOGS", "LOAD_LINES", "MEASUREMENT_AREA", "PLANKS"] as const;
export type EditorMode = (typeof EDITOR_MODES)[number];

/** Keyboard shortcuts for the modes (shown in the buttons' titles). */
export const MODE_KEYS: Record<EditorMode, string> = {
  VIEW: "v",
  EDIT: "e",
  REFERENCE: "r",
  LOGS: "l",
  LOAD_LINES: "h",
  MEASUREMENT_AREA: "a",
  PLANKS: "p",
};

export interface EditorLog {
  key: string;
  id: number | null;
  x: number;
  y: number;
  r: number;
  cullId: number | null;
  assortmentId: number | null;
  /** Changed by a person (here or before): drawn red. */
  modified: boolean;
}

export interface EditorPlank {
  key: string;
  id: number | null;
  x: number;
  y: number;
  width: number;
  height: number;
  modified: boolean;
}

export interface EditorDoc {
  /** Kept logs only; a removed log leaves the array. */
  logs: EditorLog[];
  references: ReferenceLine[];
  loadLines: Point[][];
  area: Point[] | null;
  planks: EditorPlank[];
  formula: string;
}

export interface LoadedLog {
  id: number;
  x: number;
  y: number;
  r: number;
  is_deleted: boolean;
  modified_at: string | null;
  cull_id: number | null;
  assortment_id: number | null;
}

export interface LoadedPlank {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  is_deleted: boolean;
  modified_at: string | null;
}

export function docFromLoaded(input: {
  logs?: readonly LoadedLog[];
  references?: readonly ReferenceLine[];
  loadLines?: readonly (readonly Point[])[] | null;
  area?: readonly Point[] | null;
  planks?: readonly LoadedPlank[];
  formula?: string;
}): EditorDoc {
  return {
    logs: (input.logs ?? [])
      .filter((l) => !l.is_deleted)
      .map((l) => ({
        key: `l${l.id}`,
        id: l.id,
        x: l.x,
        y: l.y,
        r: l.r,
        cullId: l.cull_id,
        assortmentId: l.assortment_id,
        modified: l.modified_at !== null,
      })),
    references: (input.references ?? []).map(({ x1, y1, x2, y2, size }) => ({ x1, y1, x2, y2, size })),
    loadLines: (input.loadLines ?? []).map((line) => line.map(({ x, y }) => ({ x, y }))),
    area: input.area ? input.area.map(({ x, y }) => ({ x, y })) : null,
    planks: (input.planks ?? [])
      .filter((p) => !p.is_deleted)
      .map((p) => ({
        key: `p${p.id}`,
        id: p.id,
        x: p.x,
        y: p.y,
        width: p.width,
        height: p.height,
        modified: p.modified_at !== null,
      })),
    formula: input.formula ?? "cylinder",
  };
}

// ---- edits ---------------------------------------------------------------------------------

let nextKey = 0;
/** A key for a shape drawn in this session (it has no id until the server stores it). */
export function newKey(prefix: "n" | "q") {
  nextKey += 1;
  return `${prefix}${nextKey}`;
}

export type LogChange = Partial<Pick<EditorLog, "x" | "y" | "r" | "cullId" | "assortmentId">>;
export type PlankChange = Partial<Pick<EditorPlank, "x" | "y" | "width" | "height">>;

export function addLog(doc: EditorDoc, log: { x: number; y: number; r: number }): EditorDoc {
  const added: EditorLog = {
    key: newKey("n"),
    id: null,
    x: log.x,
    y: log.y,
    r: log.r,
    cullId: null,
    assortmentId: null,
    modified: true,
  };
  return { ...doc, logs: [...doc.logs, added] };
}

export function changeLogs(doc: EditorDoc, changes: ReadonlyMap<string, LogChange>): EditorDoc {
  if (changes.size === 0) return doc;
  return {
    ...doc,
    logs: doc.logs.map((l) => (changes.has(l.key) ? { ...l, ...changes.get(l.key), modified: true } : l)),
  };
}

export function removeLogs(doc: EditorDoc, keys: ReadonlySet<string>): EditorDoc {
  if (keys.size === 0) return doc;
  return { ...doc, logs: doc.logs.filter((l) => !keys.has(l.key)) };
}

export function addPlank(doc: EditorDoc, plank: { x: number; y: number; width: number; height: number }): EditorDoc {
  return { ...doc, planks: [...doc.planks, { key: newKey("q"), id: null, ...normaliseRect(plank), modified: true }] };
}

export function changePlanks(doc: EditorDoc, changes: ReadonlyMap<string, PlankChange>): EditorDoc {
  if (changes.size === 0) return doc;
  return {
    ...doc,
    planks: doc.planks.map((p) =>
      changes.has(p.key) ? { ...p, ...normaliseRect({ ...p, ...changes.get(p.key) }), modified: true } : p,
    ),
  };
}

export function removePlanks(doc: EditorDoc, keys: ReadonlySet<string>): EditorDoc {
  if (keys.size === 0) return doc;
  return { ...doc, planks: doc.planks.filter((p) => !keys.has(p.key)) };
}

/** A rectangle drawn from any corner to the opposite one, as x/y of its top left and a positive size. */
export function normaliseRect(r: { x: number; y: number; width: number; height: number }) {
  return {
    x: r.width < 0 ? r.x + r.width : r.x,
    y: r.height < 0 ? r.y + r.height : r.y,
    width: Math.abs(r.width),
    height: Math.abs(r.height),
  };
}

/** Replaces reference `index`, or adds one when index is the array's length. */
export function setReference(doc: EditorDoc, index: number, ref: ReferenceLine): EditorDoc {
  const references = [...doc.references];
  references[index] = ref;
  return { ...doc, references };
}

export function setArea(doc: EditorDoc, area: Point[] | null): EditorDoc {
  return { ...doc, area };
}

export function setLoadLines(doc: EditorDoc, loadLines: Point[][]): EditorDoc {
  return { ...doc, loadLines };
}

export function setFormula(doc: EditorDoc, formula: string): EditorDoc {
  return { ...doc, formula };
}

/** Inserts a vertex after index `after` (0-based) of a polygon or polyline. */
export function insertVertex(points: readonly Point[], after: number, p: Point): Point[] {
  return [...points.slice(0, after + 1), p, ...points.slice(after + 1)];
}

export function moveVertex(points: readonly Point[], index: number, p: Point): Point[] {
  return points.map((q, i) => (i === index ? p : q));
}

export function deleteVertex(points: readonly Point[], index: number): Point[] {
  return points.filter((_, i) => i !== index);
}

/**
 * The radius for a log added by a click: the median radius of the nearest logs (logs of one pile
 * are of a kind, and perspective makes nearby ends look alike), else the fallback.
 */
export function typicalRadiusNear(
  logs: readonly { x: number; y: number; r: number }[],
  p: Point,
  fallback: number,
  k = 6,
): number {
  if (logs.length === 0) return fallback;
  const nearest = logs
    .map((l) => ({ r: l.r, d2: (l.x - p.x) ** 2 + (l.y - p.y) ** 2 }))
    .sort((a, b) => a.d2 - b.d2)
    .slice(0, k)
    .map((l) => l.r)
    .sort((a, b) => a - b);
  const mid = nearest.length >> 1;
  return nearest.length % 2 ? nearest[mid] : (nearest[mid - 1] + nearest[mid]) / 2;
}

// ---- history -------------------------------------------------------------------------------

export interface History {
  past: EditorDoc[];
  present: EditorDoc;
  future: EditorDoc[];
}

const HISTORY_LIMIT = 200;

export function historyOf(doc: EditorDoc): History {
  return { past: [], present: doc, future: [] };
}

export function commit(h: History, next: EditorDoc): History {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo(h: History): History {
  if (!h.past.length) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  if (!h.future.length) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}

// ---- what Save sends -----------------------------------------------------------------------

export interface TimberEditorPatch {
  logs?: Array<{
    id?: number;
    x?: number;
    y?: number;
    r?: number;
    cull_id?: number | null;
    wood_characteristic_id?: number | null;
  }>;
  logs_removed?: number[];
  references?: ReferenceLine[];
  volume_formula?: string;
  measurement_area?: Point[] | null;
  load_lines?: Point[][];
}

export interface LumberEditorPatch {
  planks?: Array<{ id?: number; x?: number; y?: number; width?: number; height?: number }>;
  planks_removed?: number[];
}

const samePoints = (a: readonly Point[] | null, b: readonly Point[] | null) =>
  a === b || (!!a && !!b && a.length === b.length && a.every((p, i) => p.x === b[i].x && p.y === b[i].y));

/** The PATCH body for the spec's timber call: only what changed since the document was loaded. */
export function timberPatch(original: EditorDoc, present: EditorDoc): TimberEditorPatch {
  const patch: TimberEditorPatch = {};
  const before = new Map(original.logs.map((l) => [l.key, l]));
  const logs: NonNullable<TimberEditorPatch["logs"]> = [];
  for (const l of present.logs) {
    const was = before.get(l.key);
    if (l.id === null || !was) {
      logs.push({ x: l.x, y: l.y, r: l.r, cull_id: l.cullId, wood_characteristic_id: l.assortmentId });
      continue;
    }
    const change: NonNullable<TimberEditorPatch["logs"]>[number] = {};
    if (l.x !== was.x) change.x = l.x;
    if (l.y !== was.y) change.y = l.y;
    if (l.r !== was.r) change.r = l.r;
    if (l.cullId !== was.cullId) change.cull_id = l.cullId;
    if (l.assortmentId !== was.assortmentId) change.wood_characteristic_id = l.assortmentId;
    if (Object.keys(change).length) logs.push({ id: l.id, ...change });
  }
  if (logs.length) patch.logs = logs;
  const kept = new Set(present.logs.map((l) => l.key));
  const removed = original.logs.filter((l) => !kept.has(l.key) && l.id !== null).map((l) => l.id!);
  if (removed.length) patch.logs_removed = removed;
  const sameRefs =
    original.references.length === present.references.length &&
    original.references.every((r, i) => {
      const p = present.references[i];
      return r.x1 === p.x1 && r.y1 === p.y1 && r.x2 === p.x2 && r.y2 === p.y2 && r.size === p.size;
    });
  if (!sameRefs) patch.references = present.references;
  if (present.formula !== original.formula) patch.volume_formula = present.formula;
  if (!samePoints(original.area, present.area))
    patch.measurement_area = present.area && present.area.length >= 3 ? present.area : null;
  const sameLines =
    original.loadLines.length === present.loadLines.length &&
    original.loadLines.every((l, i) => samePoints(l, present.loadLines[i]));
  if (!sameLines) patch.load_lines = present.loadLines.filter((l) => l.length >= 2);
  return patch;
}

export interface ContainerEditorPatch {
  logs?: Array<{ id?: number; x?: number; y?: number; r?: number }>;
  logs_removed?: number[];
  references?: ReferenceLine[];
  volume_formula?: string;
}

/**
 * The PATCH body of a container measurement (PATCH /containers/measurements/{id}): the timber
 * difference of logs (position and radius only), removed logs, references and formula.
 */
export function containerPatch(original: EditorDoc, present: EditorDoc): ContainerEditorPatch {
  const timber = timberPatch(original, present);
  const patch: ContainerEditorPatch = {};
  const logs = (timber.logs ?? [])
    .map(({ id, x, y, r }) => ({
      ...(id !== undefined ? { id } : {}),
      ...(x !== undefined ? { x } : {}),
      ...(y !== undefined ? { y } : {}),
      ...(r !== undefined ? { r } : {}),
    }))
    .filter((l) => l.id === undefined || Object.keys(l).length > 1);
  if (logs.length) patch.logs = logs;
  if (timber.logs_removed) patch.logs_removed = timber.logs_removed;
  if (timber.references) patch.references = timber.references;
  if (timber.volume_formula !== undefined) patch.volume_formula = timber.volume_formula;
  return patch;
}

/** The PATCH body for the spec's lumber call. */
export function lumberPatch(original: EditorDoc, present: EditorDoc): LumberEditorPatch {
  const patch: LumberEditorPatch = {};
  const before = new Map(original.planks.map((p) => [p.key, p]));
  const planks: NonNullable<LumberEditorPatch["planks"]> = [];
  for (const p of present.planks) {
    const was = before.get(p.key);
    if (p.id === null || !was) {
      planks.push({ x: p.x, y: p.y, width: p.width, height: p.height });
    } else if (p.x !== was.x || p.y !== was.y || p.width !== was.width || p.height !== was.height) {
      planks.push({ id: p.id, x: p.x, y: p.y, width: p.width, height: p.height });
    }
  }
  if (planks.length) patch.planks = planks;
  const kept = new Set(present.planks.map((p) => p.key));
  const removed = original.planks.filter((p) => !kept.has(p.key) && p.id !== null).map((p) => p.id!);
  if (removed.length) patch.planks_removed = removed;
  return patch;
}

export function isEmptyPatch(patch: object) {
  return Object.keys(patch).length === 0;
}
