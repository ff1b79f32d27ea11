#!/usr/bin/env bash
# Installs Artillery (from npm) into ~/.cache/loadplane/artillery/<version>, for the Artillery plugin's contract and
# integration tests and for agents. 2.0.21 is the newest Artillery that runs on Node 20 (later ones want Node >= 22.13).
# Idempotent (nothing to do when the right version answers); run through scripts/install-engines or alone.
set -euo pipefail

ARTILLERY_VERSION=2.0.21
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
PREFIX="$HOME/.cache/loadplane/artillery/$ARTILLERY_VERSION"
ARTILLERY="$PREFIX/node_modules/.bin/artillery"

installed_version() { node -e "console.log(require('$PREFIX/node_modules/artillery/package.json').version)" 2>/dev/null; }
artillery_ok() { [ -x "$ARTILLERY" ] && [ "$(installed_version)" = "$ARTILLERY_VERSION" ]; }

if artillery_ok; then
  echo "artillery: $ARTILLERY_VERSION at $ARTILLERY"
  exit 0
fi

command -v npm >/dev/null 2>&1 || { echo "artillery: cannot install $ARTILLERY_VERSION: npm (Node.js) is not installed" >&2; exit 1; }
mkdir -p "$PREFIX"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$SECONDS
for attempt in 1 2 3; do
  # Artillery's browser engine pulls Playwright, whose install step downloads browsers: HTTP tests need none.
  if PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error --save-exact "artillery@$ARTILLERY_VERSION" >"$log" 2>&1; then break; fi
  [ "$attempt" -lt 3 ] || { cat "$log" >&2; echo "artillery: npm install failed" >&2; exit 1; }
  sleep $((attempt * 5))
done
# Agents run tools as another user (the sandbox drops root): everything must be readable by all.
chmod -R a+rX "$PREFIX"
artillery_ok || { echo "artillery: installed artillery does not report $ARTILLERY_VERSION" >&2; exit 1; }
echo "artillery: $ARTILLERY_VERSION at $ARTILLERY (node $(node --version), installed in $((SECONDS - start))s)"
