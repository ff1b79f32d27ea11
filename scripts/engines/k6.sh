#!/usr/bin/env bash
# Builds Loadplane's k6 (k6 v1.8.1 with the `loadplane` output extension of plugins/load-tool-k6/xk6-output, which
# aggregates samples into histograms inside k6) with xk6 into ~/.cache/loadplane/bin/k6, for the agent and the k6
# tests. A few minutes the first time; nothing when the binary's stamp (k6 and xk6 versions, extension source) matches.
# Go's build cache lives under ~/.cache/loadplane/go too. Idempotent; run through scripts/install-engines (or alone).
set -euo pipefail

K6_VERSION=v1.8.1
# Pinned by plugins/load-tool-k6/xk6-tool/go.mod (v0.20.1: the proxy here serves no xk6 v1 release); its go.sum
# pins every module xk6 needs, so installing it asks no checksum server.
XK6_VERSION=v0.20.1
EXTENSION_MODULE=github.com/loadplane/xk6-output-loadplane

: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
EXTENSION_DIR="$ROOT/plugins/load-tool-k6/xk6-output"
XK6_TOOL_DIR="$ROOT/plugins/load-tool-k6/xk6-tool"
CACHE="$HOME/.cache/loadplane"
BIN_DIR="$CACHE/bin"
K6="$BIN_DIR/k6"
STAMP="$BIN_DIR/k6.stamp"
XK6="$CACHE/go/bin/xk6"
export GOCACHE="$CACHE/go/build-cache"

# What the binary was built from: a new stamp (the extension's non-test source changed, or a version) means a rebuild.
stamp() {
  {
    echo "k6 $K6_VERSION xk6 $XK6_VERSION"
    (cd "$EXTENSION_DIR" && find . -type f \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' \) ! -name '*_test.go' | LC_ALL=C sort | xargs sha256sum)
  } | sha256sum | cut -d' ' -f1
}
WANT="$(stamp)"

k6_ok() {
  [ -x "$K6" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$WANT" ] &&
    "$K6" version 2>/dev/null | grep -q "^k6 $K6_VERSION " && "$K6" version 2>/dev/null | grep -q ", loadplane \[output\]"
}

if k6_ok; then
  echo "k6: $("$K6" version | head -n 1) with the loadplane output at $K6"
  exit 0
fi

command -v go >/dev/null 2>&1 || { echo "k6: cannot build $K6_VERSION: go is not installed" >&2; exit 1; }
mkdir -p "$BIN_DIR" "$CACHE/go/bin" "$GOCACHE"
echo "k6: building $K6_VERSION with the loadplane output (xk6 $XK6_VERSION, $(go version | awk '{print $3}')) into $BIN_DIR (a few minutes the first time)"
start=$SECONDS

retry() {
  for attempt in 1 2 3; do
    if "$@"; then return 0; fi
    [ "$attempt" -lt 3 ] || return 1
    echo "k6: attempt $attempt of '$1 ${2:-}' failed; retrying"
    sleep $((attempt * 5))
  done
}

if ! go version -m "$XK6" 2>/dev/null | grep -Eq "^\s+mod\s+go\.k6\.io/xk6\s+$XK6_VERSION\s"; then
  # Built inside the pinning module (GOFLAGS=-mod=readonly: its go.sum is the whole truth).
  (cd "$XK6_TOOL_DIR" && retry env GOBIN="$CACHE/go/bin" GOFLAGS=-mod=readonly go install go.k6.io/xk6/cmd/xk6) ||
    { echo "k6: could not install xk6 $XK6_VERSION" >&2; exit 1; }
fi

# xk6 writes a fresh module in a temporary directory, requires k6 and replaces our module by its local directory.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && retry env K6_VERSION="$K6_VERSION" "$XK6" build "$K6_VERSION" --output "$work/k6" --with "$EXTENSION_MODULE=$EXTENSION_DIR") ||
  { echo "k6: xk6 build failed" >&2; exit 1; }
mv -f "$work/k6" "$K6"
echo "$WANT" >"$STAMP"
k6_ok || { echo "k6: the built binary does not report $K6_VERSION with the loadplane output: $("$K6" version 2>&1 | tr '\n' ' ')" >&2; exit 1; }
echo "k6: $("$K6" version | head -n 1) with the loadplane output at $K6 (built in $((SECONDS - start))s)"
