#!/usr/bin/env bash
# Installs hey v0.1.4 (github.com/rakyll/hey, an HTTP load generator) into ~/.cache/loadplane/bin/hey for this plugin,
# built from the Go module proxy with `go install`; writes the version it built to bin/hey.version (hey has no --version
# flag; the agent reads it from there). Nothing when it is already there. Idempotent. It ships in the plugin's package:
# `bash install-engine.sh` here, the package's bin `loadplane-plugin-hey-install-engine` where it is installed, and
# Loadplane's own `bash scripts/install-engines hey` runs it too.
set -euo pipefail

HEY_VERSION=v0.1.4
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
BIN_DIR="$HOME/.cache/loadplane/bin"
HEY="$BIN_DIR/hey"

hey_ok() { [ -x "$HEY" ] && [ "$(cat "$BIN_DIR/hey.version" 2>/dev/null)" = "$HEY_VERSION" ]; }

if hey_ok; then
  echo "hey: $HEY_VERSION at $HEY"
  exit 0
fi

command -v go >/dev/null 2>&1 || { echo "hey: cannot build $HEY_VERSION: go is not installed" >&2; exit 1; }
mkdir -p "$BIN_DIR"
echo "hey: building $HEY_VERSION with $(go version | awk '{print $3}') into $BIN_DIR"
start=$SECONDS
for attempt in 1 2 3; do
  # `pkg@version` builds outside any module, from the module proxy (GOMODCACHE and GOCACHE keep later builds quick).
  if GOBIN="$BIN_DIR" go install "github.com/rakyll/hey@$HEY_VERSION"; then break; fi
  [ "$attempt" -lt 3 ] || { echo "hey: go install failed" >&2; exit 1; }
  echo "hey: go install attempt $attempt failed; retrying"
  sleep $((attempt * 5))
done
# The binary's own build info names the module version it was built from.
built=$(go version -m "$HEY" | awk '$1 == "mod" && $2 == "github.com/rakyll/hey" { print $3 }')
[ "$built" = "$HEY_VERSION" ] || { echo "hey: built binary reports module version '$built', expected $HEY_VERSION" >&2; exit 1; }
echo "$HEY_VERSION" >"$BIN_DIR/hey.version"
echo "hey: $HEY_VERSION at $HEY (built in $((SECONDS - start))s)"
