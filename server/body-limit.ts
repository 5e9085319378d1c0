import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Request as ExpressRequest } from "express";

// Every request body is limited by the bytes actually read, not by Content-Length (a chunked
// body has none). JSON and forms are small and kept in memory; multipart uploads (photos) go to
// a temporary file, so a large or endless upload never sits in memory.
export const BODY_LIMIT_BYTES = 1024 * 1024;
// The photo limit (services/photos.server.ts PHOTO_LIMITS.maxBytes, 30 MB) plus the other fields.
export const UPLOAD_LIMIT_BYTES = 31 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor(public limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

export type ReadBody =
  { kind: "none" } | { kind: "memory"; data: Buffer } | { kind: "file"; path: string; cleanup: () => void };

export function limitFor(req: ExpressRequest) {
  return (req.get("content-type") ?? "").toLowerCase().startsWith("multipart/") ? UPLOAD_LIMIT_BYTES : BODY_LIMIT_BYTES;
}

/**
 * Feeds the body to `take` chunk by chunk; BodyTooLargeError as soon as `limit` is passed. The
 * rest is left unread (not destroyed), so the 413 can still be written before the connection closes.
 */
function consume(req: ExpressRequest, limit: number, take: (chunk: Buffer) => boolean | void): Promise<void> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const stop = (error?: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        return stop(new BodyTooLargeError(limit));
      }
      // false: the consumer is full (a file still writing); it calls req.resume() when drained.
      if (take(chunk) === false) req.pause();
    };
    const onEnd = () => stop();
    const onError = (error: Error) => stop(error);
    const onAborted = () => stop(new Error("request aborted"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/** Reads the body up to `limit` bytes; BodyTooLargeError as soon as it is passed (nothing more is kept). */
export async function readLimitedBody(req: ExpressRequest, limit = limitFor(req)): Promise<ReadBody> {
  if (req.method === "GET" || req.method === "HEAD") return { kind: "none" };
  const declared = Number(req.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (limit === UPLOAD_LIMIT_BYTES) return readToFile(req, limit);
  const chunks: Buffer[] = [];
  await consume(req, limit, (chunk) => void chunks.push(chunk));
  return { kind: "memory", data: Buffer.concat(chunks) };
}

async function readToFile(req: ExpressRequest, limit: number): Promise<ReadBody> {
  const file = path.join(os.tmpdir(), `timber-upload-${crypto.randomUUID()}`);
  const cleanup = () => fs.rm(file, { force: true }, () => {});
  const out = fs.createWriteStream(file, { mode: 0o600 });
  let failed: Error | undefined;
  out.on("error", (error) => (failed = error));
  out.on("drain", () => req.resume());
  try {
    await consume(req, limit, (chunk) => out.write(chunk));
    await new Promise<void>((resolve, reject) => out.end(() => (failed ? reject(failed) : resolve())));
  } catch (error) {
    out.destroy();
    cleanup();
    throw error;
  }
  return { kind: "file", path: file, cleanup };
}
