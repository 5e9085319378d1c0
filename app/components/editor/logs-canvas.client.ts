import { diameterLabel } from "./diameter-label";
import type { EditorLog } from "./editor-model";

// The editor's logs, drawn in bulk on their own canvas between the photo and the Paper.js layer.
//
// Why not one Paper.js item per log: with 2,000 logs that is 4,000 items (circle and label), and
// Paper.js redraws every item on every frame, ~20-50 ms on this machine's headless Chromium, so
// dragging a log or panning stutters. Here all green circles are one path stroked once, all red
// ones another, labels are grouped by font size, and logs off screen are skipped: a full redraw
// of 2,000 logs takes a few milliseconds, and while one log is dragged (drawn by Paper.js) this
// canvas is not redrawn at all; while the view pans or zooms it follows by a CSS transform and is
// redrawn when the motion settles. Paper.js keeps everything that is edited interactively.

export interface LogsView {
  /** Screen = image × zoom + (tx, ty), in CSS pixels. */
  zoom: number;
  tx: number;
  ty: number;
  width: number;
  height: number;
}

const COLOURS = {
  log: "#16a34a",
  modified: "#dc2626",
  selectedFill: "rgba(37, 99, 235, 0.35)",
  label: "#ffffff",
  labelOutline: "rgba(0, 0, 0, 0.55)",
};

export class LogsCanvas {
  private ctx: CanvasRenderingContext2D;
  private frame = 0;
  private next: {
    logs: readonly EditorLog[];
    diameters: ReadonlyMap<string, number>;
    selection: ReadonlySet<string>;
    hidden: string | null;
    view: LogsView;
  } | null = null;
  readonly stats = { draws: 0, drawMs: 0 };

  constructor(private canvas: HTMLCanvasElement) {
    this.ctx = canvas.getContext("2d")!;
  }

  /** Draws on the next animation frame (several requests in one frame draw once). */
  request(
    logs: readonly EditorLog[],
    diameters: ReadonlyMap<string, number>,
    selection: ReadonlySet<string>,
    hidden: string | null,
    view: LogsView,
  ) {
    this.next = { logs, diameters, selection, hidden, view };
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /**
   * While the view moves (pan, pinch, wheel) the drawn logs follow it by a CSS transform of the
   * canvas, which costs the browser almost nothing; the owner redraws when the motion settles.
   */
  follow(view: LogsView) {
    const drawn = this.drawn;
    if (!drawn) return;
    const s = view.zoom / drawn.zoom;
    this.canvas.style.transform = `matrix(${s}, 0, 0, ${s}, ${view.tx - drawn.tx * s}, ${view.ty - drawn.ty * s})`;
  }

  private drawn: LogsView | null = null;

  /** Draws now (the first paint, so the editor opens with its logs). */
  flush() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (!this.next) return;
    const start = performance.now();
    const { logs, diameters, selection, hidden, view } = this.next;
    this.draw(logs, diameters, selection, hidden, view);
    this.drawn = view;
    this.canvas.style.transform = "";
    this.stats.draws += 1;
    this.stats.drawMs += performance.now() - start;
  }

  destroy() {
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  private draw(
    logs: readonly EditorLog[],
    diameters: ReadonlyMap<string, number>,
    selection: ReadonlySet<string>,
    hidden: string | null,
    view: LogsView,
  ) {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.round(view.width * ratio);
    const h = Math.round(view.height * ratio);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const { zoom, tx, ty } = view;
    // Visible part of the image, to skip logs off screen.
    const x0 = -tx / zoom;
    const y0 = -ty / zoom;
    const x1 = x0 + view.width / zoom;
    const y1 = y0 + view.height / zoom;
    const visible: EditorLog[] = [];
    for (const l of logs) {
      if (l.key === hidden || l.x + l.r < x0 || l.x - l.r > x1 || l.y + l.r < y0 || l.y - l.r > y1) continue;
      visible.push(l);
    }

    ctx.setTransform(ratio * zoom, 0, 0, ratio * zoom, ratio * tx, ratio * ty);
    ctx.lineWidth = 2 / zoom;
    const circles = (filter: (l: EditorLog) => boolean) => {
      ctx.beginPath();
      for (const l of visible) {
        if (!filter(l)) continue;
        ctx.moveTo(l.x + l.r, l.y);
        ctx.arc(l.x, l.y, l.r, 0, Math.PI * 2);
      }
    };
    if (selection.size) {
      circles((l) => selection.has(l.key));
      ctx.fillStyle = COLOURS.selectedFill;
      ctx.fill();
    }
    circles((l) => !l.modified);
    ctx.strokeStyle = COLOURS.log;
    ctx.stroke();
    circles((l) => l.modified);
    ctx.strokeStyle = COLOURS.modified;
    ctx.stroke();

    // Labels in screen pixels, one decimal, hidden when smaller than 6 px (unreadable, and costly).
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = COLOURS.labelOutline;
    ctx.fillStyle = COLOURS.label;
    const bySize = new Map<number, EditorLog[]>();
    for (const l of visible) {
      const px = Math.round(labelSize(l.r) * zoom);
      if (px < 6) continue;
      const group = bySize.get(px);
      if (group) group.push(l);
      else bySize.set(px, [l]);
    }
    for (const [px, group] of bySize) {
      ctx.font = `bold ${px}px sans-serif`;
      for (const l of group) {
        const d = diameters.get(l.key);
        if (!d) continue;
        const text = diameterLabel(d);
        const sx = l.x * zoom + tx;
        const sy = l.y * zoom + ty;
        ctx.strokeText(text, sx, sy);
        ctx.fillText(text, sx, sy);
      }
    }
  }
}

/** A label's font size in image pixels: readable against the log end it names. */
export function labelSize(r: number) {
  return Math.max(10, r * 0.6);
}
