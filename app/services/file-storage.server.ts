import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { env } from "~/utils/env.server";
import { S3FileStorage, s3Settings } from "./s3-storage.server";

// The one way files (photos, renditions, exports) are kept: a port with two adapters, a local
// folder (the default) and an S3-compatible bucket (s3-storage.server.ts, chosen when
// STORAGE_S3_BUCKET is set). Both pass the same contract tests (tests/integration/file-storage.test.ts).
export interface FileStorage {
  put(key: string, data: Buffer | Readable, contentType?: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The file, or the inclusive byte range [start, end] of it; rejects when nothing is stored. */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /** Every key under a prefix ("" for all). */
  list(prefix: string): AsyncIterable<string>;
  /**
   * A URL a browser may fetch the file from directly for a while, or null when the adapter has
   * none (the local folder: the app serves the file itself).
   */
  signedUrl(key: string, opts: { expiresInSeconds: number; downloadName?: string }): Promise<string | null>;
}

export type ByteRange = { start: number; end: number };

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/i;

/** Keys are relative paths of letters, digits, `/`, `_`, `.` and `-`, never `..`. */
export function checkKey(key: string) {
  if (!KEY_PATTERN.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

export class LocalFileStorage implements FileStorage {
  constructor(private root: string) {}

  private resolve(key: string) {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer | Readable) {
    const target = this.resolve(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    // Written to a temporary name and renamed, so a crash never leaves half a file under the key.
    const temp = `${target}.${process.pid}.${Date.now()}.part`;
    try {
      if (Buffer.isBuffer(data)) await fsp.writeFile(temp, data);
      else await pipeline(data, fs.createWriteStream(temp));
      await fsp.rename(temp, target);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string) {
    return fsp.readFile(this.resolve(key));
  }

  async stream(key: string, range?: ByteRange) {
    const file = this.resolve(key);
    await fsp.access(file);
    return fs.createReadStream(file, range ? { start: range.start, end: range.end } : undefined);
  }

  async stat(key: string) {
    try {
      const s = await fsp.stat(this.resolve(key));
      return { size: s.size };
    } catch {
      return null;
    }
  }

  async delete(key: string) {
    await fsp.rm(this.resolve(key), { force: true });
  }

  async *list(prefix: string) {
    const base = path.resolve(this.root);
    let entries: string[];
    try {
      entries = (await fsp.readdir(base, { recursive: true, withFileTypes: true }))
        .filter((d) => d.isFile() && !d.name.endsWith(".part"))
        .map((d) => path.relative(base, path.join(d.parentPath, d.name)).split(path.sep).join("/"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const key of entries.sort()) if (key.startsWith(prefix)) yield key;
  }

  async signedUrl() {
    return null;
  }
}

let instance: FileStorage | undefined;
export function fileStorage(): FileStorage {
  if (!instance) {
    const e = env();
    instance = e.STORAGE_S3_BUCKET
      ? new S3FileStorage(s3Settings(e))
      : new LocalFileStorage(path.resolve(e.STORAGE_DIR));
  }
  return instance;
}

export function setFileStorage(storage: FileStorage | undefined) {
  instance = storage;
}

export function toWebStream(stream: Readable) {
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The type of a stored file, from its key's extension. */
export function contentTypeOf(key: string) {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}

/**
 * A stored file as the answer of a route that serves it (photos, exports), streamed with its
 * length; null when nothing is stored under the key. The type follows the key's extension;
 * `downloadName` makes it an attachment under that name (ASCII fallback and UTF-8 name).
 * The caller has already checked who may read it.
 */
export async function fileResponse(
  storage: FileStorage,
  key: string,
  opts: { cacheControl: string; downloadName?: string; request?: Request },
): Promise<Response | null> {
  const stat = await storage.stat(key);
  if (!stat) return null;
  const headers: Record<string, string> = {
    "Content-Type": contentTypeOf(key),
    "Content-Length": String(stat.size),
    "Cache-Control": opts.cacheControl,
    "Accept-Ranges": "bytes",
  };
  if (opts.downloadName) headers["Content-Disposition"] = contentDisposition(opts.downloadName);
  const range = parseRange(opts.request?.headers.get("range") ?? null, stat.size);
  if (range === "unsatisfiable") {
    return new Response(null, {
      status: 416,
      headers: { "Content-Range": `bytes */${stat.size}`, "Cache-Control": opts.cacheControl },
    });
  }
  if (range) {
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${stat.size}`;
    headers["Content-Length"] = String(range.end - range.start + 1);
    return new Response(toWebStream(await storage.stream(key, range)), { status: 206, headers });
  }
  return new Response(toWebStream(await storage.stream(key)), { headers });
}

export function contentDisposition(downloadName: string) {
  const ascii = downloadName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(downloadName)}`;
}

/**
 * One byte range of a Range header (`bytes=a-b`, `bytes=a-`, `bytes=-n`) within a file of `size`
 * bytes; null for none, a malformed one or several ranges (the whole file is sent then).
 */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return "unsatisfiable";
  return { start, end };
}
