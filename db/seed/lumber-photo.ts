import sharp from "sharp";
import { mulberry32 } from "./stack-photo";

// Draws a photo of a lumber package's end: plank ends in rows, at the product's section size,
// so the seeded lumber measurements have real pictures whose plank rectangles match their data.

export type DrawnPlank = { x: number; y: number; width: number; height: number };
export type DrawnPackage = { width: number; height: number; planks: DrawnPlank[] };

/**
 * Packs plank ends row by row inside the picture. Section in millimetres (width across, height
 * up) at pxPerMm; small gaps and a little jitter as in a real package; the top row is shorter.
 */
export function layoutPackage(
  seed: number,
  opts: {
    width?: number;
    height?: number;
    plankWidthMm?: number;
    plankHeightMm?: number;
    pxPerMm?: number;
    maxPlanks?: number;
  } = {},
): DrawnPackage {
  const rand = mulberry32(seed);
  const width = opts.width ?? 1200;
  const height = opts.height ?? 900;
  const pxPerMm = opts.pxPerMm ?? 1;
  const pw = Math.round((opts.plankWidthMm ?? 150) * pxPerMm);
  const ph = Math.round((opts.plankHeightMm ?? 50) * pxPerMm);
  const gap = 6;
  const margin = 80;
  const top = 120;
  const bottom = height - 90;
  const columns = Math.max(1, Math.floor((width - 2 * margin + gap) / (pw + gap)));
  // Centred across the picture.
  const left = Math.round((width - columns * (pw + gap) + gap) / 2);
  const rows = Math.max(1, Math.floor((bottom - top + gap) / (ph + gap)));
  const planks: DrawnPlank[] = [];
  for (let row = 0; row < rows; row++) {
    // The top row is partly filled, the rest full.
    const inRow = row === rows - 1 ? Math.max(1, Math.round(columns * (0.4 + rand() * 0.4))) : columns;
    const y = bottom - (row + 1) * ph - row * gap;
    for (let col = 0; col < inRow; col++) {
      const x = left + col * (pw + gap) + Math.round((rand() - 0.5) * 4);
      planks.push({ x, y: y + Math.round((rand() - 0.5) * 3), width: pw, height: ph });
      if (opts.maxPlanks && planks.length >= opts.maxPlanks) return { width, height, planks };
    }
  }
  return { width, height, planks };
}

export function packageSvg(pkg: DrawnPackage, seed: number) {
  const rand = mulberry32(seed * 13 + 5);
  const ends = pkg.planks
    .map((p) => {
      const hue = 32 + Math.round(rand() * 10);
      const light = 68 + Math.round(rand() * 10);
      // Growth rings as arcs around a pith below or above the plank, clipped to its end.
      const cx = p.x + p.width * (0.2 + rand() * 0.6);
      const cy = rand() < 0.5 ? p.y + p.height * (1.4 + rand()) : p.y - p.height * (0.4 + rand());
      const rings = Array.from({ length: 5 }, (_, i) => {
        const r = Math.abs(cy - (p.y + p.height / 2)) + (i - 2) * (p.height / 5);
        return r > 0
          ? `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="none" stroke="hsl(${hue},40%,${light - 16}%)" stroke-width="1.3"/>`
          : "";
      }).join("");
      return (
        `<svg x="${p.x}" y="${p.y}" width="${p.width}" height="${p.height}" overflow="hidden">` +
        `<g transform="translate(${-p.x},${-p.y})"><rect x="${p.x}" y="${p.y}" width="${p.width}" height="${p.height}" fill="hsl(${hue},42%,${light}%)"/>${rings}</g></svg>` +
        `<rect x="${p.x}" y="${p.y}" width="${p.width}" height="${p.height}" fill="none" stroke="hsl(28,35%,35%)" stroke-width="2"/>`
      );
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${pkg.width}" height="${pkg.height}">
<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#b7c2c8"/><stop offset="1" stop-color="#e3e8ea"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#wall)"/>
<rect y="${pkg.height - 80}" width="100%" height="80" fill="#6b6259"/>
<rect x="60" y="${pkg.height - 90}" width="${pkg.width - 120}" height="14" fill="#4a3b2c"/>
${ends}
</svg>`;
}

export async function renderPackageJpeg(pkg: DrawnPackage, seed: number) {
  return sharp(Buffer.from(packageSvg(pkg, seed)))
    .jpeg({ quality: 85 })
    .toBuffer();
}
