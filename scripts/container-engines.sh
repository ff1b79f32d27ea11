#!/usr/bin/env bash
# Puts load engines into a container image (the Dockerfile's build arg ENGINES) so its in-process agent offers them:
# the Debian packages they need, a Go toolchain only while k6 (or hey) is built, then scripts/install-engines as the
# user who runs the service, and with --slim what only building needed (Go, its caches, Maven's repository) is removed.
# Run as root; the same steps work on a Debian machine outside a container.
#
#   bash scripts/container-engines.sh [--slim] "<engines>" [user]   # engines: "" (none), "all", or "k6 locust ..."
set -euo pipefail

slim=false
if [ "${1:-}" = --slim ]; then slim=true; shift; fi
engines=${1:-}
user=${2:-node}
GO_VERSION=${GO_VERSION:-1.25.0}

[ -n "${engines// /}" ] || { echo "container-engines: no load engines requested (build arg ENGINES); the agent offers custom only"; exit 0; }
[ "$engines" = all ] && engines="k6 jmeter locust artillery gatling"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
home=$(getent passwd "$user" | cut -d: -f6)
[ -n "$home" ] || { echo "container-engines: no such user: $user" >&2; exit 2; }

packages=()
needs_go=false
for engine in $engines; do
  case $engine in
    jmeter | gatling) packages+=(openjdk-17-jdk-headless maven unzip) ;;
    locust) packages+=(python3 python3-venv) ;;
    k6 | hey) packages+=(curl ca-certificates) needs_go=true ;;
    artillery) ;; # npm and Node are the image's own
    *)
      echo "container-engines: unknown engine '$engine' (k6 jmeter locust artillery gatling hey, or all)" >&2
      exit 2
      ;;
  esac
done

if [ ${#packages[@]} -gt 0 ]; then
  # Debian's slim images lack the man directories the JDK's update-alternatives links into.
  mkdir -p /usr/share/man/man1
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}"
  rm -rf /var/lib/apt/lists/*
fi

# k6 is built with xk6, whose extension module needs Go 1.25+: Debian's golang is older, so the official toolchain is
# fetched into a temporary directory unless a new enough go is on PATH already.
go_dir=""
cleanup() { [ -z "$go_dir" ] || rm -rf "$go_dir"; }
trap cleanup EXIT
go_recent() {
  command -v go >/dev/null 2>&1 || return 1
  local minor
  minor=$(go env GOVERSION 2>/dev/null | sed -nE 's/^go1\.([0-9]+).*/\1/p')
  [ "${minor:-0}" -ge 25 ]
}
if $needs_go && ! go_recent; then
  go_dir=$(mktemp -d)
  arch=$(dpkg --print-architecture)
  echo "container-engines: fetching Go $GO_VERSION ($arch) to build k6"
  curl -fsSL "https://go.dev/dl/go$GO_VERSION.linux-$arch.tar.gz" | tar -xz -C "$go_dir"
  export PATH="$go_dir/go/bin:$PATH"
  chmod -R a+rX "$go_dir"
fi

# shellcheck disable=SC2086 # the engine names are words
runuser -u "$user" -- env HOME="$home" PATH="$PATH" bash scripts/install-engines $engines

if $slim; then
  # Only building needed these; the engines run from ~/.cache/loadplane/{bin,jmeter,gatling,locust,artillery}.
  rm -rf "$home/.cache/loadplane/go" "$home/.m2" "$home/.npm" "$home/.cache/pip" "$home/go"
fi
echo "container-engines: installed $engines for $user under $home/.cache/loadplane"
