import "~/utils/load-env-file-now.server";
import path from "node:path";
import { parseArgs } from "node:util";
import { S3FileStorage, copyFolderToStorage, s3Settings } from "~/services/s3-storage.server";
import { env } from "~/utils/env.server";

// `npm run storage:copy-to-s3 [-- --from DIR]`: copies the local file folder (STORAGE_DIR, or
// --from) into the bucket named by STORAGE_S3_BUCKET and the other STORAGE_S3_* settings, under
// the same keys. Safe to run again: files already in the bucket with the same size are skipped.
// Then set STORAGE_S3_BUCKET on every web and worker process and restart them.

const { values } = parseArgs({ options: { from: { type: "string" }, quiet: { type: "boolean" } } });
const e = env();
if (!e.STORAGE_S3_BUCKET) {
  console.error("STORAGE_S3_BUCKET is not set: name the bucket to copy into (README: Operations).");
  process.exit(2);
}
const from = path.resolve(values.from ?? e.STORAGE_DIR);
const target = new S3FileStorage(s3Settings(e));
console.log(`copying ${from} into s3://${e.STORAGE_S3_BUCKET}/${e.STORAGE_S3_PREFIX}`);
const counts = await copyFolderToStorage(from, target, { log: values.quiet ? undefined : (l) => console.log(l) });
console.log(
  `done: ${counts.copied} copied (${counts.bytes} bytes), ${counts.skipped} already there, ${counts.ignored} ignored`,
);
target.close();
