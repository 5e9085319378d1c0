// Bundles the worker, the web server's request pipeline and the database scripts (TypeScript, ~/ paths) into plain ESM under build/,
// so production runs them with node alone. Packages stay external.
import { build } from "esbuild";

await build({
  entryPoints: {
    worker: "jobs/worker.ts",
    migrate: "db/migrate.ts",
    seed: "db/seed/index.ts",
    // npm run storage:copy-to-s3 (README: Operations).
    "storage-copy-to-s3": "scripts/storage-copy-to-s3.ts",
    // The web process's request pipeline (server/), imported by server.js.
    "web-server": "server/index.ts",
  },
  outdir: "build",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  tsconfig: "tsconfig.json",
  logLevel: "warning",
});
console.log("worker, web-server, migrate and seed bundled into build/");
