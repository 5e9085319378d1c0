/**
 * Measurement math benchmark: 1,000,000 logs through each formula (logs/second) and the full
 * summary of a 2,000-log measurement (median ms). Targets (issue 3): cylinder >= 10M logs/s,
 * 2,000-log summary < 5 ms on one core. Run: npx tsx bench/domain-bench.ts
 */
import { SMOKE, rng } from "./lib";
import {
  LOG_FORMULA_KEYS,
  logVolume,
  logVolumesInto,
  summarizeMeasurement,
  type LogFormula,
  type SummaryLog,
} from "../app/domain";

const N = SMOKE ? 2_000 : 1_000_000;

const rand = rng(42);
const top = new Float64Array(N);
const mid = new Float64Array(N);
const butt = new Float64Array(N);
for (let i = 0; i < N; i++) {
  top[i] = 8 + rand() * 42;
  mid[i] = top[i] + 1 + rand() * 3;
  butt[i] = mid[i] + 1 + rand() * 3;
}
const out = new Float64Array(N);

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function runFormula(formula: LogFormula): void {
  logVolumesInto(formula, top, 4.2, out, {
    species: "spruce",
    midDiametersCm: mid,
    buttDiametersCm: butt,
  });
}

console.log(`Log formulas, ${N.toLocaleString("en")} logs each (best of 5 runs):`);
const rows: [string, number][] = [];
for (const f of LOG_FORMULA_KEYS) {
  runFormula(f); // warm-up
  const best = Math.min(...Array.from({ length: 5 }, () => time(() => runFormula(f))));
  const perSecond = N / (best / 1000);
  rows.push([f, perSecond]);
  console.log(`  ${f.padEnd(28)} ${(perSecond / 1e6).toFixed(1).padStart(8)} M logs/s  (${best.toFixed(1)} ms)`);
}

// Single-call API (object in, object out) for reference.
{
  const log = { topDiameterCm: 0, lengthM: 4.2 };
  let sink = 0;
  const run = () => {
    for (let i = 0; i < N; i++) {
      log.topDiameterCm = top[i];
      sink += logVolume("cylinder", log).value;
    }
  };
  run();
  const best = Math.min(...Array.from({ length: 5 }, () => time(run)));
  console.log(
    `  ${"cylinder via logVolume()".padEnd(28)} ${(N / best / 1000).toFixed(1).padStart(8)} M logs/s  (sink ${sink > 0})`,
  );
}

// 2,000-log measurement summary.
const logs: SummaryLog[] = [];
for (let i = 0; i < 2000; i++) {
  logs.push({
    d: 10 + rand() * 40,
    lengthM: 4.2,
    cullId: rand() < 0.03 ? "rot" : null,
    isDeleted: rand() < 0.01,
  });
}
const assortments = [
  { id: "pulp", minDiameterCm: 6, maxDiameterCm: 17.9, priceCents: 3800, volumeUnit: "m^3" as const },
  { id: "small", minDiameterCm: 18, maxDiameterCm: 25.9, priceCents: 6500, volumeUnit: "m^3" as const },
  { id: "saw", minDiameterCm: 26, maxDiameterCm: 60, pricePerLogCents: 4200 },
];
const options = { formula: "jas" as const, assortments, defaultCullId: "other", classWidthCm: 2, recompute: true };
for (let i = 0; i < 50; i++) summarizeMeasurement(logs, options);
const runs = Array.from({ length: SMOKE ? 3 : 300 }, () => time(() => summarizeMeasurement(logs, options)));
const summaryMs = median(runs);
console.log(
  `\n2,000-log measurement full summary (JAS, recomputed): median ${summaryMs.toFixed(3)} ms over ${runs.length} runs`,
);

const cylinder = rows.find(([f]) => f === "cylinder")![1];
console.log(
  `\nTargets: cylinder >= 10M logs/s: ${cylinder >= 10e6 ? "met" : "NOT met"}; summary < 5 ms: ${summaryMs < 5 ? "met" : "NOT met"}`,
);
