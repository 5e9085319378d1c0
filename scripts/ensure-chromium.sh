#!/usr/bin/env bash
# Browser tests and PDF rendering use Debian's Chromium (test tools' own browser downloads fail here).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing at $CHROMIUM. Install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
