import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "~/services/s3-storage.server";

/**
 * A real S3-compatible server (s3rver, on a loopback port, files in a temporary folder) for
 * the tests of the S3 storage adapter and of several processes sharing one bucket.
 */
export async function startS3Server(buckets: string[] = ["timber-test"]) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "timber-s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (bucket = buckets[0], prefix = ""): S3Settings => ({
    bucket,
    endpoint,
    region: "us-east-1",
    // s3rver's fixed test credentials.
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
    prefix,
  });
  /** The same bucket as process settings (web, worker, the copy command). */
  const env = (bucket = buckets[0], prefix = ""): Record<string, string> => ({
    STORAGE_S3_BUCKET: bucket,
    STORAGE_S3_ENDPOINT: endpoint,
    STORAGE_S3_REGION: "us-east-1",
    STORAGE_S3_ACCESS_KEY_ID: "S3RVER",
    STORAGE_S3_SECRET_ACCESS_KEY: "S3RVER",
    STORAGE_S3_FORCE_PATH_STYLE: "true",
    STORAGE_S3_PREFIX: prefix,
  });
  return {
    endpoint,
    directory,
    settings,
    env,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
export type S3TestServer = Awaited<ReturnType<typeof startS3Server>>;
