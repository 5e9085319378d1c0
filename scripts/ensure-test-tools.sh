#!/usr/bin/env bash
# Browser tests and PDF rendering use Debian's Chromium (test tools' own browser downloads fail here).
# The export tests read the PDFs back with poppler-utils (pdftotext, pdftoppm) and open every xlsx a
# second time with LibreOffice (soffice --headless --convert-to csv), as the people who get them do.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc-nogui)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "Missing: ${missing[*]}. Install them (Debian: sudo apt-get install -y chromium poppler-utils libreoffice-calc-nogui) or set CHROMIUM_PATH." >&2
  exit 1
fi
