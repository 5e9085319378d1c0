#!/usr/bin/env bash
# Installs the npm packages exactly as locked, unless node_modules already holds this lock file's
# install (compared by content, not file times: a fresh checkout must not reinstall needlessly).
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(sha256sum package-lock.json | cut -d' ' -f1)
have=$(cat node_modules/.lock-sha256 2>/dev/null || true)
if [ "$want" != "$have" ]; then
  npm ci --no-audit --no-fund
  echo "$want" > node_modules/.lock-sha256
fi
