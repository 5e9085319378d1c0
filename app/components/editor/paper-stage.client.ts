import paper from "paper/dist/paper-core";
import type { Point as XY, ReferenceLine } from "~/domain";
import { diameterLabel } from "./diameter-label";
import {
  addLog,
  addPlank,
  changeLogs,
  changePlanks,
  deleteVertex,
  insertVertex,
  moveVertex,
  normaliseRect,
  setArea,
  setLoadLines,
  setReference,
  typicalRadiusNear,
  type EditorDoc,
  type EditorLog,
  type EditorMode,
  type EditorPlank,
} from "./editor-model";
import { labelSize, LogsCanvas } from "./logs-canvas.client";
import type { EditorShape } from "./editor-kinds";

// The drawing surface of the measurement editor: Paper.js on a canvas over the photo.
//
// Coordinates are image pixels throughout (the document stores them so); the view's zoom and
// centre map them to the screen. The photo is an <img> under the canvases moved by the same matrix
// through a CSS transform, so a 12-megapixel photo is never redrawn. The logs are drawn in bulk on
// a canvas of their own (logs-canvas.client.ts explains why); Paper.js draws what is being edited:
// the dragged log, references, load lines, the area, planks, handles and the selection box. While
// the pointer drags, the stage moves its own Paper items only; when the drag ends it hands one
// edit to React (`edit`), which keeps the document and its history.

export interface StageInput {
  doc: EditorDoc;
  diameters: ReadonlyMap<string, number>;
  mode: EditorMode;
  readOnly: boolean;
  selection: ReadonlySet<string>;
  referenceIndex: number;
}

export interface StageCallbacks {
  edit(fn: (doc: EditorDoc) => EditorDoc): void;
  select(keys: Set<string>): void;
  selectReference(index: number): void;
  /** Radius in image pixels for a log added where no other log is near. */
  fallbackRadius(): number;
  /** New reference size in metres when none exists yet. */
  defaultReferenceSize(): number;
  onZoom?(zoom: number): void;
}

const COLOURS = {
  log: "#16a34a",
  modified: "#dc2626",
  selectedFill: "rgba(37, 99, 235, 0.35)",
  label: "#ffffff",
  reference: "#f59e0b",
  loadLine: "#0ea5e9",
  area: "#a855f7",
  areaFill: "rgba(168, 85, 247, 0.12)",
  handle: "#ffffff",
  box: "#2563eb",
};

type Gesture = {
  move(p: paper.Point, e: PointerEvent): void;
  up(p: paper.Point, e: PointerEvent, moved: boolean): void;
};

interface PlankItem {
  plank: EditorPlank;
  rect: paper.Path;
  selected: boolean;
}

export class PaperStage {
  private scope: paper.PaperScope;
  private input: StageInput;
  private logs: LogsCanvas;
  /** The log being dragged: Paper.js draws it, the logs canvas leaves it out. */
  private dragged: { key: string; items: paper.Item[]; done: boolean } | null = null;
  private plankItems = new Map<string, PlankItem>();
  private logsLayer: paper.Layer;
  private shapesLayer: paper.Layer;
  private overlayLayer: paper.Layer;
  private gesture: Gesture | null = null;
  private pointers = new Map<number, { x: number; y: number }>();
  private pinch: { distance: number; zoom: number; center: paper.Point; mid: { x: number; y: number } } | null = null;
  private fitZoom = 1;
  private spaceDown = false;
  /** A load line being drawn (index into doc.loadLines) and an area polygon not yet closed. */
  private activeLine: number | null = null;
  private areaDraft: XY[] | null = null;
  private selectedVertex: { target: "area" | number; index: number } | null = null;
  private cleanup: Array<() => void> = [];
  readonly stats = { draws: 0, drawMs: 0 };

  constructor(
    private canvas: HTMLCanvasElement,
    logsCanvas: HTMLCanvasElement,
    private photo: HTMLImageElement | null,
    private imageSize: { width: number; height: number },
    private kind: EditorShape,
    private callbacks: StageCallbacks,
    input: StageInput,
  ) {
    this.logs = new LogsCanvas(logsCanvas);
    this.scope = new paper.PaperScope();
    this.scope.setup(canvas);
    this.input = input;
    const view = this.scope.view as paper.View & { update(): boolean };
    const update = view.update.bind(view);
    view.update = () => {
      const start = performance.now();
      const drawn = update();
      if (drawn) {
        this.stats.draws += 1;
        this.stats.drawMs += performance.now() - start;
      }
      return drawn;
    };
    this.logsLayer = new this.scope.Layer();
    this.shapesLayer = new this.scope.Layer();
    this.overlayLayer = new this.scope.Layer();
    this.listen();
    this.fit();
    this.update(input);
    this.logs.flush();
  }

  /** Redraw counts and times of the Paper.js canvas and of the logs canvas (benchmark, tests). */
  get drawStats() {
    return { paper: this.stats, logs: this.logs.stats };
  }

  destroy() {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    for (const off of this.cleanup) off();
    this.logs.destroy();
    this.scope.project.remove();
  }

  // ---- view -------------------------------------------------------------------------------

  get zoom() {
    return this.scope.view.zoom;
  }

  resize(width: number, height: number) {
    this.scope.view.viewSize = new this.scope.Size(width, height);
    this.syncPhoto();
    this.requestLogs();
  }

  fit() {
    const { width, height } = this.scope.view.viewSize;
    this.fitZoom = Math.min(width / this.imageSize.width, height / this.imageSize.height) || 1;
    this.setView(this.fitZoom, new this.scope.Point(this.imageSize.width / 2, this.imageSize.height / 2));
  }

  zoomBy(factor: number, around?: { x: number; y: number }, moving = false) {
    const view = this.scope.view;
    const screen = around
      ? new this.scope.Point(around.x, around.y)
      : new this.scope.Point(view.viewSize.width / 2, view.viewSize.height / 2);
    const anchor = view.viewToProject(screen);
    const zoom = Math.min(Math.max(view.zoom * factor, this.fitZoom / 4), 16);
    const half = new this.scope.Point(view.viewSize.width / 2, view.viewSize.height / 2);
    this.setView(zoom, anchor.subtract(screen.subtract(half).divide(zoom)), moving);
  }

  /**
   * `moving`: part of a continuous pan, pinch or wheel. The logs canvas then follows by CSS and is
   * redrawn once the motion pauses (and at least every 400 ms), instead of on every frame.
   */
  private setView(zoom: number, center: paper.Point, moving = false) {
    const view = this.scope.view;
    view.zoom = zoom;
    view.center = center;
    this.syncPhoto();
    if (moving) {
      const m = view.matrix;
      this.logs.follow({ zoom: m.a, tx: m.tx, ty: m.ty, width: view.viewSize.width, height: view.viewSize.height });
      this.settleLogs();
    } else {
      this.requestLogs();
    }
    this.drawShapes();
    this.callbacks.onZoom?.(zoom);
  }

  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private settleSince: number | null = null;

  private settleLogs() {
    const now = performance.now();
    this.settleSince ??= now;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    const redraw = () => {
      this.settleTimer = null;
      this.settleSince = null;
      this.requestLogs();
    };
    if (now - this.settleSince > 400) redraw();
    else this.settleTimer = setTimeout(redraw, 120);
  }

  private syncPhoto() {
    if (!this.photo) return;
    const m = this.scope.view.matrix;
    this.photo.style.transform = `matrix(${m.a}, ${m.b}, ${m.c}, ${m.d}, ${m.tx}, ${m.ty})`;
  }

  /** Image point of a screen point relative to the canvas (and back, for tests and the benchmark). */
  toImage(x: number, y: number) {
    const p = this.scope.view.viewToProject(new this.scope.Point(x, y));
    return { x: p.x, y: p.y };
  }
  toScreen(x: number, y: number) {
    const p = this.scope.view.projectToView(new this.scope.Point(x, y));
    return { x: p.x, y: p.y };
  }

  private tolerance() {
    return 8 / this.zoom;
  }

  // ---- drawing from the document ----------------------------------------------------------

  update(input: StageInput) {
    this.input = input;
    this.scope.activate();
    if (input.mode !== this.lastMode) {
      this.lastMode = input.mode;
      this.activeLine = null;
      this.areaDraft = null;
      this.selectedVertex = null;
    }
    if (this.dragged?.done) {
      // The document now has the dragged log where it was dropped: the logs canvas takes it back.
      for (const item of this.dragged.items) item.remove();
      this.dragged = null;
    }
    this.requestLogs();
    this.drawPlanks();
    this.drawShapes();
    this.canvas.style.cursor = this.cursorFor(input.mode);
  }

  private lastMode: EditorMode | null = null;

  private requestLogs() {
    if (!this.input || this.kind !== "logs") return;
    const m = this.scope.view.matrix;
    const size = this.scope.view.viewSize;
    this.logs.request(this.input.doc.logs, this.input.diameters, this.input.selection, this.dragged?.key ?? null, {
      zoom: m.a,
      tx: m.tx,
      ty: m.ty,
      width: size.width,
      height: size.height,
    });
  }

  private drawPlanks() {
    const { doc, selection } = this.input;
    const seen = new Set<string>();
    for (const plank of doc.planks) {
      seen.add(plank.key);
      let item = this.plankItems.get(plank.key);
      if (!item || item.plank !== plank || item.selected !== selection.has(plank.key)) {
        item?.rect.remove();
        this.logsLayer.activate();
        const rect = new this.scope.Path.Rectangle({
          point: [plank.x, plank.y],
          size: [plank.width, plank.height],
          strokeWidth: 2,
          strokeScaling: false,
          strokeColor: plank.modified ? COLOURS.modified : COLOURS.log,
          fillColor: selection.has(plank.key) ? COLOURS.selectedFill : null,
        });
        item = { plank, rect, selected: selection.has(plank.key) };
        this.plankItems.set(plank.key, item);
      }
    }
    for (const [key, item] of this.plankItems) {
      if (seen.has(key)) continue;
      item.rect.remove();
      this.plankItems.delete(key);
    }
  }

  /** References, load lines and the area: few items, redrawn whole. */
  private drawShapes() {
    this.shapesLayer.removeChildren();
    this.shapesLayer.activate();
    const { doc, mode, referenceIndex } = this.input;
    const handle = 5 / this.zoom;
    const handles = (points: XY[], colour: string) => {
      for (const p of points)
        new this.scope.Path.Circle({
          center: [p.x, p.y],
          radius: handle,
          fillColor: COLOURS.handle,
          strokeColor: colour,
          strokeWidth: 2,
          strokeScaling: false,
        });
    };
    if (this.kind === "logs") {
      const area = this.areaDraft ?? doc.area;
      if (area?.length) {
        new this.scope.Path({
          segments: area.map((p) => [p.x, p.y]),
          closed: !this.areaDraft,
          strokeColor: COLOURS.area,
          strokeWidth: 2,
          strokeScaling: false,
          fillColor: this.areaDraft ? null : COLOURS.areaFill,
          dashArray: this.areaDraft ? [6, 4] : null,
        });
        if (mode === "MEASUREMENT_AREA") handles(area, COLOURS.area);
      }
      doc.loadLines.forEach((line, i) => {
        new this.scope.Path({
          segments: line.map((p) => [p.x, p.y]),
          strokeColor: COLOURS.loadLine,
          strokeWidth: i === this.activeLine ? 3 : 2,
          strokeScaling: false,
        });
        if (mode === "LOAD_LINES") handles(line, COLOURS.loadLine);
      });
      doc.references.forEach((ref, i) => {
        new this.scope.Path.Line({
          from: [ref.x1, ref.y1],
          to: [ref.x2, ref.y2],
          strokeColor: COLOURS.reference,
          strokeWidth: i === referenceIndex && mode === "REFERENCE" ? 4 : 3,
          strokeScaling: false,
        });
        if (mode === "REFERENCE")
          handles(
            [
              { x: ref.x1, y: ref.y1 },
              { x: ref.x2, y: ref.y2 },
            ],
            COLOURS.reference,
          );
      });
    }
    if (this.selectedVertex) {
      const points = this.selectedVertex.target === "area" ? doc.area : doc.loadLines[this.selectedVertex.target];
      const p = points?.[this.selectedVertex.index];
      if (p)
        new this.scope.Path.Circle({
          center: [p.x, p.y],
          radius: handle * 1.6,
          strokeColor: COLOURS.box,
          strokeWidth: 2,
          strokeScaling: false,
        });
    }
    if ((mode === "PLANKS" || mode === "EDIT") && this.kind === "planks") {
      for (const p of doc.planks) {
        if (!this.input.selection.has(p.key)) continue;
        handles(corners(p), COLOURS.box);
      }
    }
  }

  private cursorFor(mode: EditorMode) {
    if (this.input.readOnly || mode === "VIEW") return "grab";
    return mode === "EDIT" ? "default" : "crosshair";
  }

  // ---- hit tests (image coordinates) ------------------------------------------------------

  private hitLog(p: XY): { log: EditorLog; rim: boolean } | null {
    const tol = this.tolerance();
    let best: { log: EditorLog; rim: boolean; d: number } | null = null;
    for (const log of this.input.doc.logs) {
      const d = Math.hypot(p.x - log.x, p.y - log.y);
      if (d > log.r + tol) continue;
      const rim = Math.abs(d - log.r) <= tol && d > log.r * 0.5;
      const score = rim ? Math.abs(d - log.r) : d;
      if (!best || score < best.d) best = { log, rim, d: score };
    }
    return best && { log: best.log, rim: best.rim };
  }

  /** The nearest plank corner within reach (to resize), else the topmost plank under the point (to move). */
  private hitPlank(p: XY): { plank: EditorPlank; corner: number | null } | null {
    const reach = this.tolerance() * 1.5;
    const planks = this.input.doc.planks;
    let best: { plank: EditorPlank; corner: number; d: number } | null = null;
    for (const pl of planks) {
      corners(pl).forEach((q, corner) => {
        const d = Math.hypot(q.x - p.x, q.y - p.y);
        if (d <= reach && (!best || d < best.d)) best = { plank: pl, corner, d };
      });
    }
    if (best) return { plank: (best as { plank: EditorPlank }).plank, corner: (best as { corner: number }).corner };
    for (let i = planks.length - 1; i >= 0; i--) {
      const pl = planks[i];
      if (p.x >= pl.x && p.x <= pl.x + pl.width && p.y >= pl.y && p.y <= pl.y + pl.height)
        return { plank: pl, corner: null };
    }
    return null;
  }

  private hitVertex(points: readonly XY[] | null | undefined, p: XY) {
    if (!points) return -1;
    const tol = this.tolerance() * 1.5;
    return points.findIndex((q) => Math.hypot(q.x - p.x, q.y - p.y) <= tol);
  }

  private hitSegment(points: readonly XY[], closed: boolean, p: XY) {
    const tol = this.tolerance();
    const n = closed ? points.length : points.length - 1;
    for (let i = 0; i < n; i++) {
      const a = points[i];
      const b = points[(i + 1) % points.length];
      if (distanceToSegment(p, a, b) <= tol) return i;
    }
    return -1;
  }

  // ---- input --------------------------------------------------------------------------------

  private listen() {
    const c = this.canvas;
    const on = <K extends keyof HTMLElementEventMap>(
      target: HTMLElement | Window,
      type: K,
      fn: (e: HTMLElementEventMap[K]) => void,
      opts?: AddEventListenerOptions,
    ) => {
      target.addEventListener(type, fn as EventListener, opts);
      this.cleanup.push(() => target.removeEventListener(type, fn as EventListener, opts));
    };
    on(c, "pointerdown", (e) => this.onDown(e));
    on(c, "pointermove", (e) => this.onMove(e));
    on(c, "pointerup", (e) => this.onUp(e));
    on(c, "pointercancel", (e) => this.onUp(e));
    on(c, "dblclick", () => this.finishDrawing());
    on(c, "contextmenu", (e) => e.preventDefault());
    on(
      c,
      "wheel",
      (e) => {
        e.preventDefault();
        const r = c.getBoundingClientRect();
        this.zoomBy(
          Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)),
          { x: e.clientX - r.left, y: e.clientY - r.top },
          true,
        );
      },
      { passive: false },
    );
    on(window, "keydown", (e) => {
      if (e.key === " " && !isTyping(e)) this.spaceDown = true;
    });
    on(window, "keyup", (e) => {
      if (e.key === " ") this.spaceDown = false;
    });
  }

  private local(e: PointerEvent) {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private onDown(e: PointerEvent) {
    try {
      this.canvas.setPointerCapture(e.pointerId);
    } catch {
      // Not an active pointer (a synthetic event): the drag still works while over the canvas.
    }
    this.pointers.set(e.pointerId, this.local(e));
    if (this.pointers.size === 2) {
      // A second finger: pinch-zoom and pan; whatever the first finger started is dropped.
      this.gesture = null;
      const [a, b] = [...this.pointers.values()];
      this.pinch = {
        distance: Math.hypot(a.x - b.x, a.y - b.y),
        zoom: this.zoom,
        center: this.scope.view.center,
        mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
      };
      return;
    }
    const screen = this.local(e);
    const p = this.scope.view.viewToProject(new this.scope.Point(screen.x, screen.y));
    this.downAt = screen;
    const { mode, readOnly } = this.input;
    if (e.button === 1 || e.button === 2 || this.spaceDown || mode === "VIEW" || readOnly) {
      this.gesture = this.panGesture(screen);
      return;
    }
    this.gesture = this.gestureFor(mode, p, e);
  }

  private downAt = { x: 0, y: 0 };

  private onMove(e: PointerEvent) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, this.local(e));
    if (this.pinch && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const zoom = Math.min(Math.max((this.pinch.zoom * distance) / (this.pinch.distance || 1), this.fitZoom / 4), 16);
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const shift = new this.scope.Point(mid.x - this.pinch.mid.x, mid.y - this.pinch.mid.y).divide(zoom);
      this.setView(zoom, this.pinch.center.subtract(shift), true);
      return;
    }
    if (!this.gesture) return;
    const screen = this.local(e);
    this.gesture.move(this.scope.view.viewToProject(new this.scope.Point(screen.x, screen.y)), e);
  }

  private onUp(e: PointerEvent) {
    this.pointers.delete(e.pointerId);
    if (this.pinch) {
      if (this.pointers.size < 2) this.pinch = null;
      return;
    }
    const g = this.gesture;
    this.gesture = null;
    if (!g) return;
    const screen = this.local(e);
    const moved = Math.hypot(screen.x - this.downAt.x, screen.y - this.downAt.y) > 3;
    g.up(this.scope.view.viewToProject(new this.scope.Point(screen.x, screen.y)), e, moved);
  }

  /** Enter, double-click: ends the load line or closes the area being drawn. */
  finishDrawing() {
    if (this.input.mode === "LOAD_LINES") this.activeLine = null;
    if (this.input.mode === "MEASUREMENT_AREA" && this.areaDraft) {
      const draft = this.areaDraft;
      this.areaDraft = null;
      if (draft.length >= 3) this.callbacks.edit((doc) => setArea(doc, draft));
    }
    this.drawShapes();
  }

  /** Escape: drops a drawing in progress and the selection. */
  cancel() {
    this.areaDraft = null;
    this.activeLine = null;
    this.selectedVertex = null;
    this.callbacks.select(new Set());
    this.drawShapes();
  }

  /** Delete or Backspace: the selected vertex, else the selected logs or planks. */
  deleteSelected(): boolean {
    const v = this.selectedVertex;
    if (!v) return false;
    this.selectedVertex = null;
    if (v.target === "area") {
      this.callbacks.edit((doc) =>
        doc.area && doc.area.length > 3 ? setArea(doc, deleteVertex(doc.area, v.index)) : doc,
      );
    } else {
      const line = v.target;
      this.callbacks.edit((doc) =>
        setLoadLines(
          doc,
          doc.loadLines.map((l, i) => (i === line ? deleteVertex(l, v.index) : l)).filter((l) => l.length >= 2),
        ),
      );
    }
    return true;
  }

  private panGesture(start: { x: number; y: number }): Gesture {
    const center = this.scope.view.center;
    const zoom = this.zoom;
    this.canvas.style.cursor = "grabbing";
    return {
      move: (_p, e) => {
        const now = this.local(e);
        this.setView(zoom, center.subtract(new this.scope.Point(now.x - start.x, now.y - start.y).divide(zoom)), true);
      },
      up: () => {
        this.canvas.style.cursor = this.cursorFor(this.input.mode);
        if (this.settleTimer) clearTimeout(this.settleTimer);
        this.settleTimer = null;
        this.settleSince = null;
        this.requestLogs();
      },
    };
  }

  private gestureFor(mode: EditorMode, p: paper.Point, e: PointerEvent): Gesture | null {
    if (this.kind === "planks") return this.plankGesture(mode, p, e);
    switch (mode) {
      case "EDIT":
      case "LOGS":
        return this.logGesture(mode, p, e);
      case "REFERENCE":
        return this.referenceGesture(p);
      case "LOAD_LINES":
        return this.loadLineGesture(p, e);
      case "MEASUREMENT_AREA":
        return this.areaGesture(p, e);
      default:
        return this.panGesture(this.downAt);
    }
  }

  private logGesture(mode: EditorMode, p: paper.Point, e: PointerEvent): Gesture | null {
    const hit = this.hitLog(p);
    if (hit) {
      const key = hit.log.key;
      if (this.pick(key, e.shiftKey)) return null;
      const start = { x: hit.log.x, y: hit.log.y, r: hit.log.r };
      const offset = { x: p.x - start.x, y: p.y - start.y };
      const item = this.draggedLog(hit.log);
      let last = start;
      return {
        move: (q) => {
          last = hit.rim
            ? { ...start, r: Math.max(2, Math.hypot(q.x - start.x, q.y - start.y)) }
            : { ...start, x: q.x - offset.x, y: q.y - offset.y };
          item.place(last);
        },
        up: (_q, _e, moved) => {
          if (!moved) {
            this.dropDragged();
            return;
          }
          const change = hit.rim ? { r: round2(last.r) } : { x: round2(last.x), y: round2(last.y) };
          this.dragged!.done = true;
          this.callbacks.edit((doc) => changeLogs(doc, new Map([[key, change]])));
        },
      };
    }
    if (mode === "LOGS") {
      const pan = this.panGesture(this.downAt);
      return {
        move: pan.move,
        up: (q, ev, moved) => {
          pan.up(q, ev, moved);
          if (moved) return;
          const r = typicalRadiusNear(this.input.doc.logs, q, this.callbacks.fallbackRadius());
          this.callbacks.edit((doc) => addLog(doc, { x: round2(q.x), y: round2(q.y), r: round2(r) }));
        },
      };
    }
    return this.boxSelectGesture(p, e.shiftKey, (rect) =>
      this.input.doc.logs.filter((l) => rect.contains(new this.scope.Point(l.x, l.y))).map((l) => l.key),
    );
  }

  /**
   * A press on a log or plank: shift toggles it in the selection (true: nothing to drag);
   * otherwise it becomes the selection unless it is already part of it (a selection of several
   * stays for Delete and the assortment and cull selects).
   */
  private pick(key: string, toggle: boolean): boolean {
    const selection = this.input.selection;
    if (toggle) {
      const next = new Set(selection);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      this.callbacks.select(next);
      return true;
    }
    if (!selection.has(key)) this.callbacks.select(new Set([key]));
    return false;
  }

  /** The log under the pointer, lifted out of the logs canvas into Paper.js while it is dragged. */
  private draggedLog(log: EditorLog) {
    this.overlayLayer.activate();
    const circle = new this.scope.Path.Circle({
      center: [log.x, log.y],
      radius: log.r,
      strokeColor: COLOURS.modified,
      strokeWidth: 2,
      strokeScaling: false,
      fillColor: COLOURS.selectedFill,
    });
    const d = this.input.diameters.get(log.key);
    const label = new this.scope.PointText({
      point: [log.x, log.y],
      justification: "center",
      fillColor: COLOURS.label,
      fontWeight: "bold",
      fontFamily: "sans-serif",
      content: d ? diameterLabel(d) : "",
    });
    this.dragged = { key: log.key, items: [circle, label], done: false };
    this.requestLogs();
    const place = (at: { x: number; y: number; r: number }) => {
      const r = circle.bounds.width / 2;
      if (r > 0 && Math.abs(r - at.r) > 1e-9) circle.scale(at.r / r);
      circle.position = new this.scope.Point(at.x, at.y);
      label.fontSize = labelSize(at.r);
      label.point = new this.scope.Point(at.x, at.y + labelSize(at.r) * 0.35);
    };
    place(log);
    return { place };
  }

  private dropDragged() {
    if (!this.dragged) return;
    for (const item of this.dragged.items) item.remove();
    this.dragged = null;
    this.requestLogs();
  }

  private boxSelectGesture(start: paper.Point, add: boolean, inside: (rect: paper.Rectangle) => string[]): Gesture {
    this.overlayLayer.activate();
    const box = new this.scope.Path.Rectangle({
      from: start,
      to: start,
      strokeColor: COLOURS.box,
      dashArray: [4, 4],
      strokeWidth: 1,
      strokeScaling: false,
    });
    let rect = new this.scope.Rectangle(start, start);
    return {
      move: (q) => {
        rect = new this.scope.Rectangle(start, q);
        box.segments[0].point = rect.bottomLeft;
        box.segments[1].point = rect.topLeft;
        box.segments[2].point = rect.topRight;
        box.segments[3].point = rect.bottomRight;
      },
      up: (_q, _e, moved) => {
        box.remove();
        const keys = moved ? inside(rect) : [];
        this.callbacks.select(new Set(add ? [...this.input.selection, ...keys] : keys));
      },
    };
  }

  private referenceGesture(p: paper.Point): Gesture | null {
    const refs = this.input.doc.references;
    for (let i = 0; i < refs.length; i++) {
      const ends = [
        { x: refs[i].x1, y: refs[i].y1 },
        { x: refs[i].x2, y: refs[i].y2 },
      ];
      const end = this.hitVertex(ends, p);
      if (end < 0) continue;
      this.callbacks.selectReference(i);
      return this.lineDrag(
        refs[i],
        (ref, q) => (end === 0 ? { ...ref, x1: q.x, y1: q.y } : { ...ref, x2: q.x, y2: q.y }),
        (ref) => this.callbacks.edit((doc) => setReference(doc, i, ref)),
      );
    }
    const onLine = refs.findIndex(
      (r) => distanceToSegment(p, { x: r.x1, y: r.y1 }, { x: r.x2, y: r.y2 }) <= this.tolerance(),
    );
    if (onLine >= 0) {
      this.callbacks.selectReference(onLine);
      return null;
    }
    // A new line replaces the selected reference (or becomes the first one).
    const index = refs.length ? Math.min(this.input.referenceIndex, refs.length - 1) : 0;
    const size = refs[index]?.size ?? this.callbacks.defaultReferenceSize();
    const seed: ReferenceLine = { x1: p.x, y1: p.y, x2: p.x, y2: p.y, size };
    return this.lineDrag(
      seed,
      (ref, q) => ({ ...ref, x2: q.x, y2: q.y }),
      (ref) => {
        if (Math.hypot(ref.x2 - ref.x1, ref.y2 - ref.y1) < 4) return;
        this.callbacks.selectReference(index);
        this.callbacks.edit((doc) => setReference(doc, index, ref));
      },
    );
  }

  private lineDrag(
    ref: ReferenceLine,
    next: (ref: ReferenceLine, q: XY) => ReferenceLine,
    done: (ref: ReferenceLine) => void,
  ): Gesture {
    this.overlayLayer.activate();
    const line = new this.scope.Path.Line({
      from: [ref.x1, ref.y1],
      to: [ref.x2, ref.y2],
      strokeColor: COLOURS.box,
      strokeWidth: 3,
      strokeScaling: false,
    });
    let current = ref;
    return {
      move: (q) => {
        current = next(ref, { x: round2(q.x), y: round2(q.y) });
        line.segments[0].point = new this.scope.Point(current.x1, current.y1);
        line.segments[1].point = new this.scope.Point(current.x2, current.y2);
      },
      up: (_q, _e, moved) => {
        line.remove();
        if (moved) done(current);
      },
    };
  }

  /** Drags one vertex; an inserted vertex (`inserted`) is kept even when the pointer does not move. */
  private vertexDrag(
    points: readonly XY[],
    index: number,
    closed: boolean,
    done: (points: XY[]) => void,
    inserted = false,
  ): Gesture {
    this.overlayLayer.activate();
    const path = new this.scope.Path({
      segments: points.map((q) => [q.x, q.y]),
      closed,
      strokeColor: COLOURS.box,
      strokeWidth: 2,
      strokeScaling: false,
    });
    let current = [...points];
    return {
      move: (q) => {
        current = moveVertex(points, index, { x: round2(q.x), y: round2(q.y) });
        path.segments[index].point = new this.scope.Point(current[index].x, current[index].y);
      },
      up: (_q, _e, moved) => {
        path.remove();
        if (moved || inserted) done(current);
        else this.drawShapes();
      },
    };
  }

  private loadLineGesture(p: paper.Point, e: PointerEvent): Gesture | null {
    const lines = this.input.doc.loadLines;
    for (let li = 0; li < lines.length; li++) {
      const vi = this.hitVertex(lines[li], p);
      if (vi < 0) continue;
      if (e.altKey) {
        this.callbacks.edit((doc) =>
          setLoadLines(
            doc,
            doc.loadLines.map((l, i) => (i === li ? deleteVertex(l, vi) : l)).filter((l) => l.length >= 2),
          ),
        );
        return null;
      }
      this.selectedVertex = { target: li, index: vi };
      return this.vertexDrag(lines[li], vi, false, (pts) =>
        this.callbacks.edit((doc) =>
          setLoadLines(
            doc,
            doc.loadLines.map((l, i) => (i === li ? pts : l)),
          ),
        ),
      );
    }
    for (let li = 0; li < lines.length; li++) {
      const si = this.hitSegment(lines[li], false, p);
      if (si < 0) continue;
      const inserted = insertVertex(lines[li], si, { x: round2(p.x), y: round2(p.y) });
      this.selectedVertex = { target: li, index: si + 1 };
      return this.vertexDrag(
        inserted,
        si + 1,
        false,
        (pts) =>
          this.callbacks.edit((doc) =>
            setLoadLines(
              doc,
              doc.loadLines.map((l, i) => (i === li ? pts : l)),
            ),
          ),
        true,
      );
    }
    const q = { x: round2(p.x), y: round2(p.y) };
    return {
      move: () => undefined,
      up: () => {
        const active = this.activeLine;
        if (active !== null && lines[active]) {
          this.callbacks.edit((doc) =>
            setLoadLines(
              doc,
              doc.loadLines.map((l, i) => (i === active ? [...l, q] : l)),
            ),
          );
        } else {
          // A new line starts here; each next click adds a point until Enter or a double-click.
          this.activeLine = lines.length;
          this.callbacks.edit((doc) => setLoadLines(doc, [...doc.loadLines, [q]]));
        }
      },
    };
  }

  private areaGesture(p: paper.Point, e: PointerEvent): Gesture | null {
    const q = { x: round2(p.x), y: round2(p.y) };
    if (this.areaDraft || !this.input.doc.area) {
      const draft = this.areaDraft ?? [];
      return {
        move: () => undefined,
        up: () => {
          if (draft.length >= 3 && this.hitVertex([draft[0]], q) === 0) {
            this.finishDrawing();
            return;
          }
          this.areaDraft = [...draft, q];
          this.drawShapes();
        },
      };
    }
    const area = this.input.doc.area;
    const vi = this.hitVertex(area, p);
    if (vi >= 0) {
      if (e.altKey) {
        if (area.length > 3) this.callbacks.edit((doc) => setArea(doc, deleteVertex(area, vi)));
        return null;
      }
      this.selectedVertex = { target: "area", index: vi };
      return this.vertexDrag(area, vi, true, (pts) => this.callbacks.edit((doc) => setArea(doc, pts)));
    }
    const si = this.hitSegment(area, true, p);
    if (si >= 0) {
      const inserted = insertVertex(area, si, q);
      this.selectedVertex = { target: "area", index: si + 1 };
      return this.vertexDrag(inserted, si + 1, true, (pts) => this.callbacks.edit((doc) => setArea(doc, pts)), true);
    }
    this.selectedVertex = null;
    this.drawShapes();
    return this.panGesture(this.downAt);
  }

  private plankGesture(mode: EditorMode, p: paper.Point, e: PointerEvent): Gesture | null {
    const hit = this.hitPlank(p);
    if (hit) {
      const key = hit.plank.key;
      if (this.pick(key, e.shiftKey)) return null;
      const item = this.plankItems.get(key)!;
      const start = hit.plank;
      const corner = hit.corner;
      const offset = { x: p.x - start.x, y: p.y - start.y };
      let last = { x: start.x, y: start.y, width: start.width, height: start.height };
      return {
        move: (q) => {
          if (corner === null) {
            last = { ...last, x: q.x - offset.x, y: q.y - offset.y };
          } else {
            // The opposite corner stays put.
            const fixed = corners(start)[(corner + 2) % 4];
            last = { x: fixed.x, y: fixed.y, width: q.x - fixed.x, height: q.y - fixed.y };
          }
          const r = normaliseRect(last);
          item.rect.bounds = new this.scope.Rectangle(r.x, r.y, Math.max(r.width, 1), Math.max(r.height, 1));
        },
        up: (_q, _e, moved) => {
          if (!moved) return;
          const r = normaliseRect(last);
          this.callbacks.edit((doc) =>
            changePlanks(
              doc,
              new Map([
                [
                  key,
                  {
                    x: round2(r.x),
                    y: round2(r.y),
                    width: round2(Math.max(r.width, 1)),
                    height: round2(Math.max(r.height, 1)),
                  },
                ],
              ]),
            ),
          );
        },
      };
    }
    if (mode === "PLANKS") {
      this.overlayLayer.activate();
      const preview = new this.scope.Path.Rectangle({
        from: p,
        to: p,
        strokeColor: COLOURS.modified,
        strokeWidth: 2,
        strokeScaling: false,
      });
      let rect = new this.scope.Rectangle(p, p);
      return {
        move: (q) => {
          rect = new this.scope.Rectangle(p, q);
          preview.bounds = rect;
        },
        up: (_q, _e, moved) => {
          preview.remove();
          if (!moved || rect.width < 3 || rect.height < 3) {
            this.callbacks.select(new Set());
            return;
          }
          this.callbacks.edit((doc) =>
            addPlank(doc, {
              x: round2(rect.x),
              y: round2(rect.y),
              width: round2(rect.width),
              height: round2(rect.height),
            }),
          );
        },
      };
    }
    return this.boxSelectGesture(p, e.shiftKey, (rect) =>
      this.input.doc.planks
        .filter((pl) => rect.contains(new this.scope.Point(pl.x + pl.width / 2, pl.y + pl.height / 2)))
        .map((pl) => pl.key),
    );
  }
}

function corners(p: { x: number; y: number; width: number; height: number }): XY[] {
  return [
    { x: p.x, y: p.y },
    { x: p.x + p.width, y: p.y },
    { x: p.x + p.width, y: p.y + p.height },
    { x: p.x, y: p.y + p.height },
  ];
}

function distanceToSegment(p: XY, a: XY, b: XY) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

function round2(v: number) {
  return Math.round(v * 100) / 100;
}

function isTyping(e: KeyboardEvent) {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA");
}
