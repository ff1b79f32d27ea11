#!/usr/bin/env bash
# Builds the `loadplane` program (adapters/runtime/bun/loadplane.ts) as single executables with `bun build --compile`:
# the program, every built-in plugin and the Bun runtime in one file, needing no checkout, npm or Bun on the machine.
#
#   bash scripts/build-binaries.sh              # dist/loadplane-linux-x64 and dist/loadplane-linux-arm64
#   bash scripts/build-binaries.sh x64          # one target
#   DIST_DIR=/tmp/out bash scripts/build-binaries.sh x64
#
# A cross build (arm64 on an x64 machine) fetches that target's Bun runtime once, from the npm registry
# (@oven/bun-linux-aarch64), and Bun caches it. Plugins installed with `loadplane plugin install --agent` load from
# AGENT_PLUGINS_DIR and get the executable's own plugin kit; plugins named with --plugins are imported by package name,
# which a single executable cannot resolve: run such an agent from a checkout (npm run agent) instead.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bun="$root/node_modules/.bin/bun"
out="${DIST_DIR:-$root/dist}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x64 arm64)

mkdir -p "$out"
for target in "${targets[@]}"; do
  case "$target" in
    x64 | arm64) ;;
    *) echo "build-binaries: unknown target '$target' (x64 or arm64)" >&2; exit 2 ;;
  esac
  # Run from the checkout, so the package's self-reference (`loadplane/plugin`, used by every plugin) resolves.
  (cd "$root" && "$bun" build --compile --target="bun-linux-$target" adapters/runtime/bun/loadplane.ts --outfile "$out/loadplane-linux-$target")
done
