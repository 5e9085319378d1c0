import { createHash } from "node:crypto";
import sharp from "sharp";
import { photoStorageKey } from "~/models/measurement-photo.server";
import { PHOTO_LIMITS } from "./photos.server";
import type { FileStorage } from "./file-storage.server";

// The downloadable picture of a shared measurement (/public_measurement/{token}.jpeg): its photo
// with every log drawn on it as on the page (green, red once a person changed it, the diameter
// to one decimal) and a caption band below it with the figures, made with sharp from an SVG
// composite. Made once per version of the measurement, language and time zone, then kept in the
// file storage beside the measurement's photos.

/** Raised whenever the drawing changes, so no picture of the old drawing is served again. */
const DRAWING_VERSION = 1;
/** The picture is at most this wide or high (the optimized rendition's size). */
const MAX_SIZE = 2560;

const GREEN = "#22c55e";
const RED = "#ef4444";
const FONTS = "DejaVu Sans, Noto Sans, Noto Sans CJK JP, Noto Sans Georgian, Noto Sans Devanagari, sans-serif";

export interface PictureLog {
  x: number;
  y: number;
  r: number;
  d: number;
  modified: boolean;
}

export interface PictureInput {
  /** The stored photo to draw on (the optimized rendition, else the original). */
  photoKey: string;
  /** The size the logs' pixel coordinates are in (the original photo's). */
  photoWidth: number;
  photoHeight: number;
  logs: PictureLog[];
  /** A diameter label in the page's number format, one decimal. */
  label: (d: number) => string;
  /** The caption, first line largest: volume and logs, then formula, length and time, then where. */
  caption: string[];
}

const xml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** The SVG of the logs over a picture of width x height whose photo is scale times the original's size. */
function overlaySvg(input: PictureInput, width: number, height: number, scale: number) {
  const stroke = Math.max(3, Math.round(width / 640));
  const circles: string[] = [];
  const labels: string[] = [];
  for (const l of input.logs) {
    const cx = (l.x * scale).toFixed(1);
    const cy = (l.y * scale).toFixed(1);
    circles.push(
      `<circle cx="${cx}" cy="${cy}" r="${(l.r * scale).toFixed(1)}" stroke="${l.modified ? RED : GREEN}"/>`,
    );
    // As the page draws them: the label's size follows the log's, never below a readable size.
    const size = Math.round(Math.max(11, l.r * scale * 0.6));
    labels.push(
      `<text x="${cx}" y="${cy}" font-size="${size}" text-anchor="middle" dominant-baseline="central">${xml(input.label(l.d))}</text>`,
    );
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<g fill="none" stroke-width="${stroke}">${circles.join("")}</g>` +
      `<g font-family="${FONTS}" font-weight="600" fill="#fff" stroke="#000" stroke-opacity="0.65" ` +
      `stroke-width="${stroke}" stroke-linejoin="round" paint-order="stroke">${labels.join("")}</g>` +
      `</svg>`,
  );
}

/** The caption band: one large line, then smaller ones, each shrunk to fit the width. */
function captionSvg(lines: string[], width: number) {
  const pad = Math.round(Math.max(16, width * 0.02));
  const big = Math.round(Math.max(20, width * 0.028));
  const small = Math.round(big * 0.62);
  let y = pad;
  const texts = lines.map((line, i) => {
    const wanted = i === 0 ? big : small;
    // About 0.6 em per character: a long line is set smaller rather than cut off.
    const size = Math.max(10, Math.min(wanted, Math.floor((width - 2 * pad) / Math.max(1, line.length * 0.6))));
    y += size;
    const text = `<text x="${pad}" y="${y}" font-size="${size}" font-weight="${i === 0 ? 700 : 400}">${xml(line)}</text>`;
    y += Math.round(size * 0.45);
    return text;
  });
  const height = y + pad - Math.round(small * 0.45);
  return {
    height,
    svg: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        `<rect width="100%" height="100%" fill="#1d2420"/>` +
        `<g font-family="${FONTS}" fill="#ffffff">${texts.join("")}</g></svg>`,
    ),
  };
}

/** Draws the picture: the photo upright and at most MAX_SIZE, the logs over it, the caption below. */
export async function renderMeasurementPicture(photo: Buffer, input: PictureInput) {
  // Decoded once, to raw pixels: the overlay is drawn to the size the photo comes out at.
  const { data, info } = await sharp(photo, { limitInputPixels: PHOTO_LIMITS.maxPixels })
    .rotate()
    .resize(MAX_SIZE, MAX_SIZE, { fit: "inside", withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const scale = width / input.photoWidth;
  const caption = captionSvg(input.caption, width);
  return sharp(data, { raw: { width, height, channels } })
    .extend({ bottom: caption.height, background: "#1d2420" })
    .composite([
      { input: overlaySvg(input, width, height, scale), top: 0, left: 0 },
      { input: caption.svg, top: height, left: 0 },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * The stored picture's key, drawn first when this version is not kept yet. The version is the
 * measurement's last change, the photo drawn on, the caption (language and time zone are in its
 * words) and the drawing's own version: any change of them is a new picture.
 */
export async function measurementPicture(
  files: FileStorage,
  m: { organizationId: number; measurementId: number; updatedAt: Date },
  input: PictureInput,
) {
  const version = createHash("sha256")
    .update(JSON.stringify([DRAWING_VERSION, m.updatedAt.getTime(), input.photoKey, input.caption, input.label(12.25)]))
    .digest("hex")
    .slice(0, 16);
  const key = photoStorageKey("timber", m.organizationId, m.measurementId, `public-${version}.jpg`);
  if (!(await files.stat(key))) {
    await files.put(key, await renderMeasurementPicture(await files.get(input.photoKey), input));
  }
  return key;
}
