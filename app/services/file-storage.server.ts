import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { env } from "~/utils/env.server";

// The one way files (photos, renditions, exports) are kept. A local folder by default; the
// interface is what an S3-compatible adapter would implement.
export interface FileStorage {
  put(key: string, data: Buffer | Readable, contentType?: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/i;

export class LocalFileStorage implements FileStorage {
  constructor(private root: string) {}

  private resolve(key: string) {
    if (!KEY_PATTERN.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.root, key);
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

  async stream(key: string) {
    const file = this.resolve(key);
    await fsp.access(file);
    return fs.createReadStream(file);
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
}

let instance: FileStorage | undefined;
export function fileStorage(): FileStorage {
  instance ??= new LocalFileStorage(path.resolve(env().STORAGE_DIR));
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

/**
 * A stored file as the answer of a route that serves it (photos, exports), streamed with its
 * length; null when nothing is stored under the key. The type follows the key's extension;
 * `downloadName` makes it an attachment under that name (ASCII fallback and UTF-8 name).
 * The caller has already checked who may read it.
 */
export async function fileResponse(
  storage: FileStorage,
  key: string,
  opts: { cacheControl: string; downloadName?: string },
): Promise<Response | null> {
  const stat = await storage.stat(key);
  if (!stat) return null;
  const ext = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  const headers: Record<string, string> = {
    "Content-Type": CONTENT_TYPES[ext] ?? "application/octet-stream",
    "Content-Length": String(stat.size),
    "Cache-Control": opts.cacheControl,
  };
  if (opts.downloadName) {
    const ascii = opts.downloadName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
    headers["Content-Disposition"] =
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(opts.downloadName)}`;
  }
  return new Response(toWebStream(await storage.stream(key)), { headers });
}
