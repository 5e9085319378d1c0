import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// Benchmarks rot when nothing runs them: each bench/ script runs here at its BENCH_SMOKE size
// (seconds, its own databases, no figures asserted), so one that no longer runs fails the suite.
const run = promisify(execFile);
const scripts = fs
  .readdirSync("bench")
  .filter((f) => f.endsWith(".ts") && f !== "lib.ts")
  .sort();

describe("every benchmark runs at its smoke size", () => {
  it("finds the benchmarks", () => {
    expect(scripts).toContain("timber-dashboard.ts");
    expect(scripts).toContain("lumber-dashboard.ts");
    expect(scripts).toContain("reports.ts");
    expect(scripts).toContain("history.ts");
    expect(scripts).toContain("containers.ts");
  });

  for (const script of scripts) {
    it(`bench/${script}`, { timeout: 180_000 }, async () => {
      const { stdout } = await run(process.execPath, ["--import", "tsx", `bench/${script}`], {
        env: { ...process.env, BENCH_SMOKE: "1", NODE_ENV: "production" },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 170_000,
      });
      expect(stdout.trim().length).toBeGreaterThan(0);
    });
  }
});
