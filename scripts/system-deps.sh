#!/usr/bin/env bash
# The machine's own programs that decklab's tests drive, installed from Debian's
# packages where this user can (root, or sudo without a password); elsewhere it says
# what is missing and the tests that need it skip, each saying why.
#   chromium    the browser tests (Playwright drives Debian's build: its own download
#               cannot work on machines without the open internet)
#   postgresql  the server tests run again on a real PostgreSQL server that they start
#               themselves from initdb/pg_ctl
#   nginx       the deployment test: TLS and WebSockets through a reverse proxy
#   openssl     the deployment test's self-signed certificate
# Usage: scripts/system-deps.sh   (idempotent: installs nothing that is already there)
set -euo pipefail

missing=()
if ! { command -v initdb && command -v pg_ctl; } >/dev/null 2>&1 \
  && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  run=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  run=(sudo -n)
else
  echo "system-deps: not installed (needs root): ${missing[*]} — the tests that need them" \
       "will skip, saying why; 'sudo apt-get install ${missing[*]}' gives you every test." >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: no apt-get here; install ${missing[*]} with your system's packages" \
       "to run every test (the tests that need them skip, saying why)." >&2
  exit 0
fi
echo "system-deps: installing ${missing[*]} (Debian packages) ..."
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -q
"${run[@]}" apt-get install -y -q "${missing[@]}"
