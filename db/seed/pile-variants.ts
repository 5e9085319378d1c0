import { layoutStack, mulberry32, type DrawnStack } from "./stack-photo";

// Piles for the duplicate analysis's tests, seed and benchmark: one pile face laid out, the same
// pile photographed again (shifted, scaled, slightly rotated, a few log ends missed or added,
// diameters with detection noise), and other piles that merely look alike (same packing and size).

export interface PileLog {
  x: number;
  y: number;
  r: number;
  /** Diameter in cm as detection would give it. */
  d: number;
}

export function pileLogs(stack: DrawnStack): PileLog[] {
  return stack.logs.map((l) => ({ ...l, d: Math.round(((2 * l.r) / stack.pxPerCm) * 10) / 10 }));
}

/** A pile face (seeded). Different seeds lay out different piles of the same kind. */
export function pile(seed: number, opts: { width?: number; height?: number } = {}): PileLog[] {
  return pileLogs(layoutStack(seed, { width: opts.width ?? 1000, height: opts.height ?? 750 }));
}

/**
 * The same pile photographed again: the camera a step away or closer (scale), aside (shift),
 * tilted (rotation), detection missing or adding a few logs, diameters with noise.
 */
export function rephotograph(
  logs: readonly PileLog[],
  seed: number,
  opts: {
    scale?: number;
    rotationDeg?: number;
    shiftPx?: number;
    missed?: number;
    added?: number;
    noise?: number;
  } = {},
): PileLog[] {
  const rand = mulberry32(seed);
  const scale = opts.scale ?? 0.8 + rand() * 0.5;
  const rot = (((opts.rotationDeg ?? (rand() * 2 - 1) * 5) as number) * Math.PI) / 180;
  const shift = opts.shiftPx ?? 150;
  const sx = (rand() * 2 - 1) * shift;
  const sy = (rand() * 2 - 1) * shift;
  const noise = opts.noise ?? 0.04;
  const missed = opts.missed ?? Math.round(logs.length * 0.04);
  const added = opts.added ?? Math.round(logs.length * 0.03);
  const cx = logs.reduce((s, l) => s + l.x, 0) / Math.max(1, logs.length);
  const cy = logs.reduce((s, l) => s + l.y, 0) / Math.max(1, logs.length);
  const cos = Math.cos(rot);
  const sin = Math.sin(rot);
  const kept = [...logs];
  for (let k = 0; k < missed && kept.length > 1; k++) kept.splice(Math.floor(rand() * kept.length), 1);
  const out = kept.map((l) => {
    const x = (l.x - cx) * scale;
    const y = (l.y - cy) * scale;
    const dNoise = 1 + (rand() * 2 - 1) * noise;
    return {
      x: Math.round((cx + x * cos - y * sin + sx) * 10) / 10,
      y: Math.round((cy + x * sin + y * cos + sy) * 10) / 10,
      r: Math.round(l.r * scale * dNoise * 10) / 10,
      d: Math.round(l.d * dNoise * 10) / 10,
    };
  });
  for (let k = 0; k < added; k++) {
    // A false detection somewhere on the face (a branch end, a shadow).
    const base = out[Math.floor(rand() * out.length)];
    out.push({
      x: base.x + (rand() - 0.5) * 60,
      y: base.y + (rand() - 0.5) * 60,
      r: 10 + rand() * 20,
      d: 8 + rand() * 10,
    });
  }
  return out;
}
