import sharp from "sharp";

// Draws a photo of a log stack's face: log ends at known sizes and a 1 m reference stick, so the
// seeded measurements have real pictures whose logs and reference match their data exactly.

export type DrawnLog = { x: number; y: number; r: number };
export type DrawnStack = {
  width: number;
  height: number;
  pxPerCm: number;
  logs: DrawnLog[];
  reference: { x1: number; y1: number; x2: number; y2: number; size: number };
};

/** A small deterministic PRNG, so the same seed draws the same stack. */
export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Packs log ends row by row over the face; diameters drawn between minCm and maxCm. */
export function layoutStack(
  seed: number,
  opts: { width?: number; height?: number; pxPerCm?: number; minCm?: number; maxCm?: number } = {},
): DrawnStack {
  const rand = mulberry32(seed);
  const width = opts.width ?? 1600;
  const height = opts.height ?? 1200;
  const pxPerCm = opts.pxPerCm ?? 4;
  const minCm = opts.minCm ?? 14;
  const maxCm = opts.maxCm ?? 38;
  const logs: DrawnLog[] = [];
  const top = 170;
  const bottom = height - 60;
  let y = bottom;
  while (y > top + 40) {
    let x = 70 + rand() * 30;
    let rowMax = 0;
    while (x < width - 90) {
      const dCm = minCm + rand() * (maxCm - minCm);
      const r = (dCm * pxPerCm) / 2;
      if (x + 2 * r > width - 60) break;
      const cy = y - r - rand() * 6;
      if (cy - r < top) break;
      logs.push({ x: Math.round((x + r) * 10) / 10, y: Math.round(cy * 10) / 10, r: Math.round(r * 10) / 10 });
      x += 2 * r + 2 + rand() * 6;
      rowMax = Math.max(rowMax, 2 * r);
    }
    if (rowMax === 0) break;
    y -= rowMax * 0.9;
  }
  const stickY = 120;
  const stickX1 = 200 + Math.round(rand() * 200);
  return {
    width,
    height,
    pxPerCm,
    logs,
    reference: { x1: stickX1, y1: stickY, x2: stickX1 + 100 * pxPerCm, y2: stickY, size: 1 },
  };
}

export function stackSvg(stack: DrawnStack, seed: number) {
  const rand = mulberry32(seed * 7 + 1);
  const ends = stack.logs
    .map((l) => {
      const hue = 28 + Math.round(rand() * 12);
      const light = 62 + Math.round(rand() * 12);
      const rings = [0.75, 0.5, 0.25]
        .map(
          (f) =>
            `<circle cx="${l.x}" cy="${l.y}" r="${(l.r * f).toFixed(1)}" fill="none" stroke="hsl(${hue},45%,${light - 14}%)" stroke-width="1.2"/>`,
        )
        .join("");
      return (
        `<circle cx="${l.x}" cy="${l.y}" r="${l.r}" fill="hsl(${hue},38%,${light}%)" stroke="hsl(25,35%,28%)" stroke-width="${Math.max(2, l.r * 0.09).toFixed(1)}"/>` +
        rings +
        `<circle cx="${l.x}" cy="${l.y}" r="2" fill="hsl(25,40%,35%)"/>`
      );
    })
    .join("");
  const { x1, y1, x2 } = stack.reference;
  const stripes = Array.from({ length: 10 }, (_, i) => {
    const sx = x1 + ((x2 - x1) / 10) * i;
    return `<rect x="${sx}" y="${y1 - 9}" width="${(x2 - x1) / 10}" height="18" fill="${i % 2 ? "#f2f2f2" : "#d62828"}"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${stack.width}" height="${stack.height}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9cc3dd"/><stop offset="1" stop-color="#dfe9ee"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#sky)"/>
<rect y="${stack.height - 70}" width="100%" height="70" fill="#5b4a36"/>
<rect x="40" y="150" width="${stack.width - 80}" height="${stack.height - 210}" fill="#3b2c1e"/>
${ends}
${stripes}
<rect x="${x1}" y="${y1 - 9}" width="${x2 - x1}" height="18" fill="none" stroke="#222" stroke-width="2"/>
</svg>`;
}

export async function renderStackJpeg(stack: DrawnStack, seed: number) {
  return sharp(Buffer.from(stackSvg(stack, seed)))
    .jpeg({ quality: 85 })
    .toBuffer();
}
