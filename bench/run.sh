#!/usr/bin/env bash
# Runs Loadplane's benchmarks (loopback only, bounded in time) and prints their results as markdown.
#
#   npm run bench                      # auth-list and list-breakdown
#   bash bench/run.sh auth-list        # one benchmark
#   bash bench/run.sh auth-list pglite --duration 20s   # extra arguments go to the benchmark
#   bash bench/run.sh profile-list     # diagnostic: CPU profile of the server under load (not run by default)
#   bash bench/run.sh dispatch | log-path | engine-overhead   # the run path (docs/benchmarks.md, "Runs"); not run by default
#   bash bench/run.sh fleet | backlog   # many agents on one process; dispatch behind 1,000 pending tasks; not run by default
#   bash bench/run.sh sandbox          # the tool sandbox's cost: k6 and custom, sandboxed vs not; start latency; not run by default
#   bash bench/run.sh http-tool-vs-k6  # the built-in http tool's engine against k6 on one loopback target; not run by default
#
# Results are recorded by hand in docs/benchmarks.md together with the command that produced them.
set -euo pipefail

cd "$(dirname "$0")/.."
BUN=./node_modules/.bin/bun
BENCHMARKS=(auth-list list-breakdown profile-list dispatch log-path engine-overhead fleet backlog sandbox webhooks http-tool-vs-k6)
DEFAULT=(auth-list list-breakdown)

usage() {
  echo "usage: bash bench/run.sh [auth-list|list-breakdown|profile-list [arguments...]]" >&2
  echo "  auth-list      [pglite] [postgres] [reference] [idp] [--rounds 3] [--duration 10s] [--warmup 3s] [--threads 1] [--connections 64] [--quiet-wait 120] [--json FILE]" >&2
  echo "  list-breakdown [pglite] [postgres] [--iterations 700]" >&2
  echo "  profile-list   [pglite|postgres] [--path /api/v1/tests] [--duration 10s] [--connections 64] [--top 30] [--keep DIR]" >&2
  echo "  dispatch       [pglite] [postgres] [--runs 50] [--warmup 5]" >&2
  echo "  log-path       [pglite|postgres] [--flood 1:200000,...] [--paced 1:1000,...] [--max-stored N] [--agent-batch-ms N] [--replicas 2 [--rounds 2]]" >&2
  echo "  engine-overhead [--engines k6,...] [--vus 20] [--duration 15s] [--rounds 3]" >&2
  echo "  fleet          [postgres|pglite] [--agents 10000] [--stages 100,1000] [--workers 2] [--runs 200] [--rest 30] [--profile DIR] [--quiet-wait 60]" >&2
  echo "  backlog        [--workspaces 100] [--per-workspace 10] [--runs 100] [--profile DIR] [--quiet-wait 60]" >&2
  echo "  sandbox        [--vus 10] [--duration 10s] [--rounds 3] [--iterations 40] [--e2e 15]" >&2
  echo "  webhooks       [postgres] [pglite] [--events 2000] [--hooks 2] [--runs 40]" >&2
  echo "  http-tool-vs-k6 [--legs http,k6[,k6-agent,autocannon,fetch-loop]] [--rounds 4] [--vus 20] [--duration 8] [--quiet 60]" >&2
  echo "  without arguments: ${DEFAULT[*]}" >&2
}

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  usage
  exit 0
fi

if [[ ! -x "$BUN" ]]; then
  echo "bench: $BUN is missing; run npm install first" >&2
  exit 1
fi

# wrk, not autocannon: a Node load generator cannot saturate a Bun server.
if ! command -v wrk >/dev/null 2>&1; then
  if [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing wrk (apt-get install -y wrk)" >&2
    apt-get install -y wrk >&2 || { apt-get update >&2 && apt-get install -y wrk >&2; }
  else
    echo "bench: wrk is not installed; install it (Debian: sudo apt-get install -y wrk) and run again" >&2
    exit 1
  fi
fi

if [[ $# -eq 0 ]]; then
  selected=("${DEFAULT[@]}")
elif [[ " ${BENCHMARKS[*]} " == *" $1 "* ]]; then
  selected=("$1")
  shift
else
  echo "bench: unknown benchmark '$1'" >&2
  usage
  exit 2
fi

# fleet holds one socket per simulated agent in the server and in the simulators (plus the server's database
# connections): raise the open-file limit for this shell and its children as far as allowed.
if [[ " ${selected[*]} " == *" fleet "* || " ${selected[*]} " == *" backlog "* ]]; then
  ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  echo "bench: open-file limit $(ulimit -n)" >&2
fi

for name in "${selected[@]}"; do
  echo "bench: $name" >&2
  "$BUN" "bench/$name.ts" "$@"
done
