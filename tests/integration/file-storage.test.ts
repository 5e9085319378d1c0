import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type S3TestServer } from "#tests/helpers/s3-server";
import { fileResponse, LocalFileStorage, parseRange, type FileStorage } from "~/services/file-storage.server";
import { copyFolderToStorage, S3FileStorage } from "~/services/s3-storage.server";

// One contract for the storage port, run against both adapters: the local folder and an
// S3-compatible bucket on a real server (s3rver) started here.

let s3: S3TestServer;
const folders: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "timber-storage-test-"));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  s3 = await startS3Server(["contract", "copy-target"]);
});
afterAll(async () => {
  await s3.stop();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

async function readAll(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function listAll(storage: FileStorage, prefix: string) {
  const keys: string[] = [];
  for await (const key of storage.list(prefix)) keys.push(key);
  return keys.sort();
}

const adapters: [string, () => FileStorage][] = [
  ["local folder", () => new LocalFileStorage(tempDir())],
  ["S3 bucket", () => new S3FileStorage(s3.settings("contract", `run-${Date.now()}/`))],
];

describe.each(adapters)("the storage port on a %s", (_name, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));

  it("keeps a buffer and gives it back whole, as a stream and with its size", async () => {
    await storage.put("photos/1/original.jpg", bytes);
    expect((await storage.get("photos/1/original.jpg")).equals(bytes)).toBe(true);
    expect((await readAll(await storage.stream("photos/1/original.jpg"))).equals(bytes)).toBe(true);
    expect(await storage.stat("photos/1/original.jpg")).toEqual({ size: 3000 });
  });

  it("keeps a stream of unknown length", async () => {
    const parts = [Buffer.from("first part,"), Buffer.alloc(70_000, 7), Buffer.from("last part")];
    await storage.put("exports/2/report.xlsx", Readable.from(parts));
    expect((await storage.get("exports/2/report.xlsx")).equals(Buffer.concat(parts))).toBe(true);
  });

  it("reads a byte range (inclusive ends)", async () => {
    await storage.put("photos/3/thumbnail.jpg", bytes);
    const part = await readAll(await storage.stream("photos/3/thumbnail.jpg", { start: 100, end: 199 }));
    expect(part.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await readAll(await storage.stream("photos/3/thumbnail.jpg", { start: 2990, end: 2999 }));
    expect(tail.equals(bytes.subarray(2990))).toBe(true);
  });

  it("replaces a file put again under the same key", async () => {
    await storage.put("photos/4/popup.jpg", Buffer.from("old"));
    await storage.put("photos/4/popup.jpg", Buffer.from("new content"));
    expect((await storage.get("photos/4/popup.jpg")).toString()).toBe("new content");
  });

  it("says nothing is there for a missing key and refuses to read it", async () => {
    expect(await storage.stat("photos/none/original.jpg")).toBeNull();
    await expect(storage.get("photos/none/original.jpg")).rejects.toThrow();
    await expect(storage.stream("photos/none/original.jpg")).rejects.toThrow();
  });

  it("deletes, and deleting what is not there is no error", async () => {
    await storage.put("photos/5/original.jpg", bytes);
    await storage.delete("photos/5/original.jpg");
    expect(await storage.stat("photos/5/original.jpg")).toBeNull();
    await expect(storage.delete("photos/5/original.jpg")).resolves.toBeUndefined();
  });

  it("lists the keys under a prefix", async () => {
    await storage.put("listing/a/1.jpg", Buffer.from("1"));
    await storage.put("listing/a/2.jpg", Buffer.from("2"));
    await storage.put("listing/b/3.jpg", Buffer.from("3"));
    expect(await listAll(storage, "listing/a/")).toEqual(["listing/a/1.jpg", "listing/a/2.jpg"]);
    expect(await listAll(storage, "listing/")).toHaveLength(3);
  });

  it("refuses keys that could leave its root", async () => {
    await expect(storage.put("../escape.jpg", bytes)).rejects.toThrow(/Invalid storage key/);
    await expect(storage.get("photos/../../etc/passwd")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.put("/absolute.jpg", bytes)).rejects.toThrow(/Invalid storage key/);
  });

  it("serves a file as a route answer, whole or one range (206), and 416 past its end", async () => {
    await storage.put("photos/6/optimized.jpg", bytes);
    const whole = (await fileResponse(storage, "photos/6/optimized.jpg", { cacheControl: "no-store" }))!;
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("image/jpeg");
    expect(whole.headers.get("Content-Length")).toBe("3000");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const request = new Request("http://x/", { headers: { Range: "bytes=1000-1499" } });
    const part = (await fileResponse(storage, "photos/6/optimized.jpg", { cacheControl: "no-store", request }))!;
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe("bytes 1000-1499/3000");
    expect(part.headers.get("Content-Length")).toBe("500");
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 1500))).toBe(true);

    const past = new Request("http://x/", { headers: { Range: "bytes=5000-" } });
    const refused = (await fileResponse(storage, "photos/6/optimized.jpg", {
      cacheControl: "no-store",
      request: past,
    }))!;
    expect(refused.status).toBe(416);
    expect(refused.headers.get("Content-Range")).toBe("bytes */3000");

    expect(await fileResponse(storage, "photos/none/optimized.jpg", { cacheControl: "no-store" })).toBeNull();
  });
});

describe("signed URLs", () => {
  it("the S3 adapter signs a URL a browser can download the file from, under its name", async () => {
    const storage = new S3FileStorage(s3.settings("contract", "signed/"));
    await storage.put("exports/9/file.xlsx", Buffer.from("spreadsheet bytes"));
    const url = (await storage.signedUrl("exports/9/file.xlsx", { expiresInSeconds: 60, downloadName: "Käru.xlsx" }))!;
    expect(url).toMatch(/X-Amz-Signature=/);
    expect(url).toMatch(/X-Amz-Expires=60/);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("spreadsheet bytes");
  });

  it("the local folder has none (the app serves its files itself)", async () => {
    const storage = new LocalFileStorage(tempDir());
    expect(await storage.signedUrl()).toBeNull();
  });
});

describe("Range headers", () => {
  it.each([
    ["bytes=0-9", { start: 0, end: 9 }],
    ["bytes=10-", { start: 10, end: 99 }],
    ["bytes=-10", { start: 90, end: 99 }],
    ["bytes=50-500", { start: 50, end: 99 }],
    ["bytes=100-", "unsatisfiable"],
    ["bytes=-0", "unsatisfiable"],
    ["bytes=9-3", null],
    ["bytes=0-1,5-6", null],
    ["items=0-9", null],
    [null, null],
  ] as const)("%s of 100 bytes is %j", (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});

describe("moving a local folder into a bucket", () => {
  function folderWithFiles() {
    const root = tempDir();
    fs.mkdirSync(path.join(root, "photos/timber/1"), { recursive: true });
    fs.mkdirSync(path.join(root, "exports/7"), { recursive: true });
    fs.writeFileSync(path.join(root, "photos/timber/1/original.jpg"), Buffer.alloc(1234, 1));
    fs.writeFileSync(path.join(root, "photos/timber/1/thumbnail.jpg"), Buffer.alloc(99, 2));
    fs.writeFileSync(path.join(root, "exports/7/report.xlsx"), Buffer.from("xlsx"));
    // Half-written files of a crashed put are not copied.
    fs.writeFileSync(path.join(root, "exports/7/report.xlsx.123.456.part"), Buffer.from("half"));
    return root;
  }

  it("copies every file under the same key, and a second run copies nothing again", async () => {
    const root = folderWithFiles();
    const target = new S3FileStorage(s3.settings("copy-target", "library/"));
    const first = await copyFolderToStorage(root, target);
    expect(first).toMatchObject({ copied: 3, skipped: 0, bytes: 1234 + 99 + 4 });
    expect(await listAll(target, "")).toEqual([
      "exports/7/report.xlsx",
      "photos/timber/1/original.jpg",
      "photos/timber/1/thumbnail.jpg",
    ]);
    expect((await target.get("photos/timber/1/original.jpg")).equals(Buffer.alloc(1234, 1))).toBe(true);
    expect(await copyFolderToStorage(root, target)).toMatchObject({ copied: 0, skipped: 3 });
  });

  it("npm run storage:copy-to-s3 does it from the settings (the built command)", async () => {
    const root = folderWithFiles();
    const { stdout } = await promisify(execFile)("node", ["build/storage-copy-to-s3.js", "--from", root], {
      env: { ...process.env, ...s3.env("copy-target", "command/"), NODE_ENV: "production" },
    });
    expect(stdout).toMatch(/done: 3 copied \(1337 bytes\), 0 already there/);
    const target = new S3FileStorage(s3.settings("copy-target", "command/"));
    expect((await target.get("exports/7/report.xlsx")).toString()).toBe("xlsx");
  });

  it("the command refuses to run without a bucket", async () => {
    const run = promisify(execFile)("node", ["build/storage-copy-to-s3.js"], {
      env: { ...process.env, STORAGE_S3_BUCKET: "", NODE_ENV: "production" },
    });
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/STORAGE_S3_BUCKET is not set/) });
  });
});
