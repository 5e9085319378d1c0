#!/usr/bin/env bash
# One command from a fresh clone to a running product: install, databases, demo data, build, start.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install.sh
if [ ! -f .env ]; then
  # A local secret for this machine only; production sets its own (README: Configuration).
  echo "SESSION_SECRET=$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')" > .env
  echo "created .env with a fresh SESSION_SECRET"
fi
set -a; . ./.env; set +a
bash scripts/ensure-services.sh
npm run build
node build/migrate.js
node build/seed.js

export NODE_ENV=production PORT="${PORT:-3000}"
node build/worker.js &
WORKER=$!
trap 'kill $WORKER 2>/dev/null || true' EXIT INT TERM
echo
echo "Timber is starting at ${APP_URL:-http://localhost:$PORT}"
echo "Sign in as admin@demo.timber.test / Demo-Password-2026!  (viewer: viewer@demo.timber.test, same password)"
echo
node server.js
