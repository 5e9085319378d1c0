#!/usr/bin/env bash
# Makes a local stand-in for the official node:20-bookworm-slim image where no image registry is
# reachable: Debian bookworm from Debian's own mirror (debootstrap), this machine's Node 20 and
# npm (copied from /usr), and a `node` user with uid/gid 1000 as in the official image. Imported
# into Docker as $BASE (default timber-base:bookworm-node20), for
#   docker build --build-arg BASE=timber-base:bookworm-node20 .
# Needs root, debootstrap and a running Docker daemon. Usage: scripts/docker-base.sh [image-name]
set -euo pipefail

BASE="${1:-${BASE:-timber-base:bookworm-node20}}"
# The mirror apt uses here (deb822 sources first, then the one-line format).
MIRROR="${DEBIAN_MIRROR:-$(
  { grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}'
    grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}'; } | grep -v security | head -n1 || true
)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
SECURITY="${MIRROR%/debian}/debian-security"

node_version="$(node -p 'process.versions.node')"
case "$node_version" in
  20.*) ;;
  *) echo "docker-base: this machine's Node is $node_version; the image wants Node 20" >&2; exit 1 ;;
esac
command -v debootstrap >/dev/null || { echo "docker-base: debootstrap is not installed (apt-get install -y debootstrap)" >&2; exit 1; }
[ -x /usr/bin/node ] && [ -d /usr/lib/node_modules/npm ] ||
  { echo "docker-base: expects Node in /usr/bin and npm in /usr/lib/node_modules (a Debian-style install)" >&2; exit 1; }

root="$(mktemp -d /tmp/timber-base-XXXXXX)"
trap 'rm -rf "$root"' EXIT

echo "docker-base: debootstrap bookworm from $MIRROR"
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >/dev/null
cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY bookworm-security main
EOF

echo "docker-base: Node $node_version and npm $(npm -v) from this machine"
# Only the runtime: the binary and npm/npx/corepack as installed here (npm may have been updated
# past the nodejs package's own, so the folders are copied as they are, not the package's list).
mkdir -p "$root/usr/bin" "$root/usr/lib/node_modules"
cp -a /usr/bin/node "$root/usr/bin/node"
for tool in npm corepack; do
  [ -d "/usr/lib/node_modules/$tool" ] && cp -a "/usr/lib/node_modules/$tool" "$root/usr/lib/node_modules/"
done
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/bin/npx"
[ -d "$root/usr/lib/node_modules/corepack" ] &&
  ln -sf ../lib/node_modules/corepack/dist/corepack.js "$root/usr/bin/corepack"

# Where this machine reaches the registries through a TLS-inspecting proxy, Node trusts its extra
# certificates (NODE_EXTRA_CA_CERTS): the base carries that file so `npm ci` in the build does too.
# Kept apart from /etc/ssl, which the image's own ca-certificates package rewrites.
extra_ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  echo "docker-base: trusting this machine's NODE_EXTRA_CA_CERTS ($NODE_EXTRA_CA_CERTS)"
  mkdir -p "$root/usr/local/share/timber-base"
  cp "$NODE_EXTRA_CA_CERTS" "$root/usr/local/share/timber-base/extra-ca.pem"
  extra_ca=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/timber-base/extra-ca.pem')
fi

# The official image's user.
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin "$@"; }
in_root groupadd --gid 1000 node
in_root useradd --uid 1000 --gid node --shell /bin/bash --create-home node
in_root node -e 'process.exit(0)'
in_root npm -v >/dev/null
in_root apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/*.log "$root"/tmp/*

echo "docker-base: importing as $BASE"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  "${extra_ca[@]}" \
  --change 'CMD ["node"]' \
  - "$BASE" >/dev/null
docker image ls "$BASE"
