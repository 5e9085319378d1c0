import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "~": fileURLToPath(new URL("./app", import.meta.url)),
  "#db": fileURLToPath(new URL("./db", import.meta.url)),
  "#tests": fileURLToPath(new URL("./tests", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.{ts,tsx}", "jobs/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-databases.ts", "tests/setup/global-app.ts"],
          setupFiles: ["tests/setup/fail-on-console-error.ts", "tests/setup/integration.ts"],
          // One MySQL and one PostgreSQL database per run: files share them, so they run one at a time.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          // A poll waits for the page's state; its 1 s default is shorter than a save answered on a
          // loaded two-core CI machine, which made passing flows fail. The poll still ends at once on success.
          expect: { poll: { timeout: 10_000 } },
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-databases.ts", "tests/setup/global-app.ts"],
          setupFiles: ["tests/setup/fail-on-console-error.ts", "tests/setup/integration.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
