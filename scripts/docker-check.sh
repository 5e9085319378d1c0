#!/usr/bin/env bash
# Builds the production image and shows it works (README: Operations, "The image"):
#   1. lints the Dockerfile (dockerfilelint from npm; see below for why not hadolint),
#   2. builds the image (on $BASE; without a reachable image registry, on a base made from
#      Debian's packages by scripts/docker-base.sh),
#   3. runs migrate and the demo seed from the image against this machine's MariaDB and
#      PostgreSQL (scratch databases, dropped at the end), then a web and a worker container,
#   4. checks /healthcheck/ready, that the login page renders and the demo admin's storages page
#      shows the demo data, that the worker takes jobs, that it all runs as a non-root user, and
#      prints the image's size.
# Needs a running Docker daemon and the databases (scripts/ensure-services.sh). Containers use
# the host's network, so 127.0.0.1 is this machine's databases.
# Usage: scripts/docker-check.sh   (IMAGE, BASE, PORT, DATABASE_URL, JOBS_DATABASE_URL may be set)
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-timber:check}"
PORT="${PORT:-3999}"
MYSQL_BASE="${DATABASE_URL:-mysql://root@127.0.0.1:3306/timber}"
PG_BASE="${JOBS_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/timber_jobs}"
SUFFIX="docker_check_$$"
MYSQL_URL="${MYSQL_BASE%/*}/timber_${SUFFIX}"
PG_URL="${PG_BASE%/*}/timber_jobs_${SUFFIX}"
SECRET="$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')"
WEB="timber-check-web-$$"
WORKER="timber-check-worker-$$"
VOLUME="timber-check-data-$$"

say() { printf '\n== %s\n' "$*"; }
fail() { echo "docker-check: FAILED: $*" >&2; exit 1; }

cleanup() {
  docker rm -f "$WEB" "$WORKER" >/dev/null 2>&1 || true
  docker volume rm "$VOLUME" >/dev/null 2>&1 || true
  node -e '
    const mysql = require("mysql2/promise"), pg = require("pg");
    (async () => {
      const m = new URL(process.argv[1]), name = m.pathname.slice(1); m.pathname = "/";
      const c = await mysql.createConnection({ uri: m.toString() });
      await c.query("DROP DATABASE IF EXISTS `" + name + "`"); await c.end();
      const p = new URL(process.argv[2]), pgName = p.pathname.slice(1); p.pathname = "/postgres";
      const client = new pg.Client({ connectionString: p.toString() }); await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`); await client.end();
    })().catch((e) => { console.error("cleanup:", e.message); });
  ' "$MYSQL_URL" "$PG_URL" || true
}
trap cleanup EXIT

docker info >/dev/null 2>&1 || fail "no Docker daemon answers (start dockerd)"

say "lint"
# `docker build --check` needs BuildKit's buildx plugin, which this Docker lacks, and hadolint is
# not published on npm: dockerfilelint is. Its two known false positives are turned off in
# .dockerfilelintrc (why there).
if docker buildx version >/dev/null 2>&1; then
  docker build --check . || fail "docker build --check"
fi
npx --yes dockerfilelint@1.8.0 Dockerfile || fail "dockerfilelint"

say "base image"
if [ -z "${BASE:-}" ]; then
  if docker image inspect node:20-bookworm-slim >/dev/null 2>&1 ||
    timeout 60 docker pull node:20-bookworm-slim >/dev/null 2>&1; then
    BASE=node:20-bookworm-slim
  else
    BASE=timber-base:bookworm-node20
    echo "node:20-bookworm-slim cannot be pulled here: using $BASE (scripts/docker-base.sh)"
    docker image inspect "$BASE" >/dev/null 2>&1 || bash scripts/docker-base.sh "$BASE"
  fi
fi
echo "BASE=$BASE"

say "build $IMAGE"
# The host's network: the build's npm ci and apt-get reach the registries as this machine does.
started=$(date +%s)
docker build --network host --build-arg BASE="$BASE" -t "$IMAGE" . || fail "docker build"
echo "built in $(($(date +%s) - started)) s"

run_env=(-e DATABASE_URL="$MYSQL_URL" -e JOBS_DATABASE_URL="$PG_URL" -e SESSION_SECRET="$SECRET"
  -e APP_URL="http://127.0.0.1:$PORT" -e PORT="$PORT" -e HOST=127.0.0.1)

say "user"
user="$(docker image inspect -f '{{.Config.User}}' "$IMAGE")"
uid="$(docker run --rm "$IMAGE" id -u)"
echo "USER $user, uid $uid"
[ "$user" = node ] && [ "$uid" != 0 ] || fail "the image runs as root"

say "migrate and seed from the image"
docker volume create "$VOLUME" >/dev/null
docker run --rm --network host "${run_env[@]}" -v "$VOLUME:/data/storage" "$IMAGE" node build/migrate.js | tail -n 1
docker run --rm --network host "${run_env[@]}" -v "$VOLUME:/data/storage" "$IMAGE" node build/seed.js | tail -n 2

say "web and worker containers"
docker run -d --name "$WEB" --network host "${run_env[@]}" -v "$VOLUME:/data/storage" "$IMAGE" >/dev/null
docker run -d --name "$WORKER" --network host "${run_env[@]}" -v "$VOLUME:/data/storage" "$IMAGE" \
  node build/worker.js >/dev/null
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 60); do
  curl -fsS "$base/healthcheck/live" >/dev/null 2>&1 && break
  sleep 1
done
ready="$(curl -sS -w ' %{http_code}' "$base/healthcheck/ready")" || { docker logs "$WEB"; fail "web did not start"; }
echo "/healthcheck/ready: $ready"
[[ "$ready" == *' 200' ]] || fail "/healthcheck/ready"

login="$(curl -sS -o /tmp/timber-check-login.html -w '%{http_code}' "$base/login")"
grep -q '<form' /tmp/timber-check-login.html && [ "$login" = 200 ] || fail "the login page did not render ($login)"
echo "/login: $login, a form"
jar="$(mktemp)"
code="$(curl -sS -c "$jar" -o /dev/null -w '%{http_code}' -X POST "$base/login" \
  --data-urlencode email=admin@demo.timber.test --data-urlencode 'password=Demo-Password-2026!' \
  --data-urlencode redirectTo=/storages)"
[ "$code" = 302 ] || fail "signing in as the demo admin answered $code"
page="$(curl -sS -b "$jar" -w ' %{http_code}' "$base/storages")"
rm -f "$jar" /tmp/timber-check-login.html
[[ "$page" == *' 200' ]] && [[ "$page" == *"Tartu roadside landing"* ]] || fail "the storages page did not show the demo data"
echo "/storages as the demo admin: 200, the demo storages"

for _ in $(seq 1 30); do
  docker logs "$WORKER" 2>&1 | grep -q 'worker: running' && break
  sleep 1
done
docker logs "$WORKER" 2>&1 | grep 'worker: running' || fail "the worker did not start"
ps_user="$(docker exec "$WEB" id -un)"
echo "processes run as: $ps_user"
[ "$ps_user" != root ] || fail "the web process runs as root"
chromium="$(docker exec "$WORKER" chromium --version 2>/dev/null || true)"
echo "chromium in the image: ${chromium:-missing}"
[ -n "$chromium" ] || fail "chromium is missing"

say "image"
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
echo "$IMAGE: $((size / 1024 / 1024)) MB on $BASE"
docker stop -t 30 "$WEB" >/dev/null
echo "web stopped with exit code $(docker inspect -f '{{.State.ExitCode}}' "$WEB")"
echo
echo "docker-check: OK"
