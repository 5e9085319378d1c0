#!/usr/bin/env bash
# Every test: unit, integration (real MySQL and PostgreSQL, the built app and worker) and browser.
# Each run creates its own databases and drops them at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install.sh
bash scripts/ensure-test-tools.sh
bash scripts/ensure-services.sh
npm run lint
npx tsc
npm run build

mkdir -p test-results
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || status=$?
node -e '
const r = JSON.parse(require("fs").readFileSync("test-results/vitest.json", "utf8"));
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit $status
