#!/usr/bin/env bash
# Installs k6 v1.8.1 into ~/.cache/loadplane/bin/k6 for the k6 contract and integration tests (built from the Go
# module proxy with `go install`; a few minutes the first time, nothing when the right binary is already there).
# Idempotent; run through scripts/install-engines (or alone: bash scripts/engines/k6.sh).
set -euo pipefail

K6_VERSION=v1.8.1
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
BIN_DIR="$HOME/.cache/loadplane/bin"
K6="$BIN_DIR/k6"

k6_ok() { [ -x "$K6" ] && "$K6" version 2>/dev/null | grep -q "^k6 $K6_VERSION "; }

if k6_ok; then
  echo "k6: $("$K6" version | head -n 1) at $K6"
  exit 0
fi

command -v go >/dev/null 2>&1 || { echo "k6: cannot build $K6_VERSION: go is not installed" >&2; exit 1; }
mkdir -p "$BIN_DIR"
echo "k6: building $K6_VERSION with $(go version | awk '{print $3}') into $BIN_DIR (a few minutes the first time)"
start=$SECONDS
for attempt in 1 2 3; do
  # `pkg@version` builds outside any module, from the module proxy (GOMODCACHE and GOCACHE keep later builds quick).
  if GOBIN="$BIN_DIR" go install "go.k6.io/k6@$K6_VERSION"; then break; fi
  [ "$attempt" -lt 3 ] || { echo "k6: go install failed" >&2; exit 1; }
  echo "k6: go install attempt $attempt failed; retrying"
  sleep $((attempt * 5))
done
k6_ok || { echo "k6: built binary does not report $K6_VERSION: $("$K6" version 2>&1 | head -n 1)" >&2; exit 1; }
echo "k6: $("$K6" version | head -n 1) at $K6 (built in $((SECONDS - start))s)"
