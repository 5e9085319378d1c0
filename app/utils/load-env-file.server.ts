import fs from "node:fs";

/** Settings from .env when present (the demo command writes one); real environment variables win. */
export function loadEnvFile(path = ".env") {
  if (fs.existsSync(path)) process.loadEnvFile(path);
}
