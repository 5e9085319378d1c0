import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Env } from "~/utils/env.server";
import {
  checkKey,
  contentDisposition,
  contentTypeOf,
  LocalFileStorage,
  type ByteRange,
  type FileStorage,
} from "./file-storage.server";

export type S3Settings = {
  bucket: string;
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
  prefix: string;
};

export function s3Settings(e: Env): S3Settings {
  return {
    bucket: e.STORAGE_S3_BUCKET!,
    endpoint: e.STORAGE_S3_ENDPOINT,
    region: e.STORAGE_S3_REGION,
    credentials:
      e.STORAGE_S3_ACCESS_KEY_ID && e.STORAGE_S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.STORAGE_S3_ACCESS_KEY_ID, secretAccessKey: e.STORAGE_S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.STORAGE_S3_FORCE_PATH_STYLE,
    prefix: e.STORAGE_S3_PREFIX,
  };
}

function isMissing(error: unknown) {
  return (
    error instanceof S3ServiceException &&
    (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * The storage port on an S3-compatible bucket. A stream of unknown length is spooled to a
 * temporary file first (PutObject needs the length; a multipart upload would need another
 * package), so an export of any size goes up in one request with its length known.
 */
export class S3FileStorage implements FileStorage {
  readonly client: S3Client;

  constructor(private settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Checksums only where S3 requires them: S3-compatible servers do not all know the newer
      // CRC headers and chunked trailers the SDK sends by default.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private objectKey(key: string) {
    return this.settings.prefix + checkKey(key);
  }

  async put(key: string, data: Buffer | Readable, type?: string) {
    const Key = this.objectKey(key);
    const contentType = type ?? contentTypeOf(key);
    if (Buffer.isBuffer(data)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.settings.bucket, Key, Body: data, ContentType: contentType }),
      );
      return;
    }
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "timber-s3-"));
    const temp = path.join(dir, "upload");
    try {
      await pipeline(data, fs.createWriteStream(temp));
      const { size } = await fsp.stat(temp);
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key,
          Body: fs.createReadStream(temp),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async get(key: string) {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stream(key: string, range?: ByteRange) {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return answer.Body as Readable;
  }

  async stat(key: string) {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string) {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.settings.prefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) if (item.Key) yield item.Key.slice(this.settings.prefix.length);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, opts: { expiresInSeconds: number; downloadName?: string }) {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        ResponseContentDisposition: opts.downloadName ? contentDisposition(opts.downloadName) : undefined,
      }),
      { expiresIn: opts.expiresInSeconds },
    );
  }

  close() {
    this.client.destroy();
  }
}

/**
 * Copies every file under a local folder into a storage under the same keys (the move from
 * STORAGE_DIR to a bucket). Files already there with the same size are skipped, so a copy that
 * stopped halfway can be run again.
 */
export async function copyFolderToStorage(
  root: string,
  target: FileStorage,
  opts: { log?: (line: string) => void } = {},
) {
  const source = new LocalFileStorage(root);
  const counts = { copied: 0, skipped: 0, bytes: 0, ignored: 0 };
  for await (const key of source.list("")) {
    try {
      checkKey(key);
    } catch {
      counts.ignored++;
      opts.log?.(`ignored ${key}: not a storage key`);
      continue;
    }
    const size = (await source.stat(key))!.size;
    const existing = await target.stat(key);
    if (existing && existing.size === size) {
      counts.skipped++;
      continue;
    }
    await target.put(key, await source.stream(key));
    counts.copied++;
    counts.bytes += size;
    opts.log?.(`copied ${key} (${size} bytes)`);
  }
  return counts;
}
