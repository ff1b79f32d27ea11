#!/usr/bin/env bash
# The OpenAPI document against the real service: openapi-spec-validator checks the document, then schemathesis
# (coverage, fuzzing and stateful phases, every check) drives a service started here on a free loopback port with the
# admin's bearer token and fails on a 5xx, an undocumented status, a body that breaks its schema, and the like.
# Both tools live in a venv under ~/.cache/loadplane (installed once). Env: API_FUZZ_EXAMPLES (per operation, default
# 25), API_FUZZ_SECONDS (hard stop for schemathesis, default 300).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
VENV="$HOME/.cache/loadplane/openapi-venv"
VALIDATOR_VERSION=0.9.0
SCHEMATHESIS_VERSION=4.32.5
EXAMPLES=${API_FUZZ_EXAMPLES:-25}
SECONDS_LIMIT=${API_FUZZ_SECONDS:-300}

tools_ok() {
  "$VENV/bin/python" - "$VALIDATOR_VERSION" "$SCHEMATHESIS_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if version("openapi-spec-validator") == sys.argv[1] and version("schemathesis") == sys.argv[2] else 1)
PY
}
if ! tools_ok; then
  # The first Python that can make a venv (a pyenv one, or Debian's with python3-venv).
  [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV" 2>/dev/null || /usr/bin/python3 -m venv "$VENV" ||
    { echo "cannot create a Python venv in $VENV (Debian: apt-get install python3-venv)" >&2; exit 1; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "openapi-spec-validator==$VALIDATOR_VERSION" "schemathesis==$SCHEMATHESIS_VERSION"
fi
tools_ok || { echo "openapi-spec-validator $VALIDATOR_VERSION / schemathesis $SCHEMATHESIS_VERSION could not be installed in $VENV" >&2; exit 1; }
echo "    openapi-spec-validator $VALIDATOR_VERSION, schemathesis $SCHEMATHESIS_VERSION ($VENV)"

WORK=$(mktemp -d /tmp/lp-api-conformance.XXXXXX)
SERVICE_PID=""
cleanup() {
  local status=$?
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -TERM "$SERVICE_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVICE_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVICE_PID" 2>/dev/null || true
  fi
  [ "$status" -eq 0 ] || { echo "--- service log (last 40 lines)"; tail -n 40 "$WORK/service.log" 2>/dev/null || true; }
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

PORT=$("$VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export LOADPLANE_URL="http://127.0.0.1:$PORT"
export LOADPLANE_USERNAME=fuzz-admin
LOADPLANE_PASSWORD=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
LOADPLANE_CLIENT_SECRET=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export LOADPLANE_PASSWORD LOADPLANE_CLIENT_SECRET

# Embedded PGlite, and no local agent: fuzzed `custom` tests must never run as scripts on this machine.
env -i PATH="$PATH" HOME="$HOME" PORT="$PORT" HOST=127.0.0.1 DATA_DIR="$WORK/data" LOCAL_AGENT=false LOG_LEVEL=warn \
  BOOTSTRAP_ADMIN_USERNAME="$LOADPLANE_USERNAME" BOOTSTRAP_ADMIN_PASSWORD="$LOADPLANE_PASSWORD" \
  AUTH_CLIENT_SECRET="$LOADPLANE_CLIENT_SECRET" \
  node_modules/.bin/bun adapters/runtime/bun/main.ts >"$WORK/service.log" 2>&1 </dev/null &
SERVICE_PID=$!
# fetch URL [FILE]: GET, fail on anything but 2xx (python: curl may be missing on a CI image).
fetch() {
  "$VENV/bin/python" - "$@" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as response:
    body = response.read()
if len(sys.argv) > 2:
    open(sys.argv[2], "wb").write(body)
PY
}
for _ in $(seq 1 600); do
  fetch "$LOADPLANE_URL/healthz" 2>/dev/null && break
  kill -0 "$SERVICE_PID" 2>/dev/null || { echo "the service exited before it was ready" >&2; exit 1; }
  sleep 0.1
done
fetch "$LOADPLANE_URL/healthz" || { echo "the service did not become ready" >&2; exit 1; }

fetch "$LOADPLANE_URL/swagger-ui/openapi.json" "$WORK/openapi.json"
"$VENV/bin/python" - "$WORK/openapi.json" <<'PY'
import json, sys
from openapi_spec_validator import validate
document = json.load(open(sys.argv[1]))
validate(document)
operations = sum(1 for item in document["paths"].values() for key in item if key in ("get", "put", "post", "patch", "delete"))
print(f"    openapi-spec-validator: the document is valid OpenAPI {document['openapi']} ({operations} operations)")
PY

# The SSE stream of a pending task (no agent here) stays open until the run ends, so schemathesis would only see a
# timeout: it is left out here; tests/integration/task-streams.test.ts drives it. Schemathesis runs in $WORK, where it
# keeps its crash files. One worker: with threads, hypothesis trips over a CPython 3.11 ast bug ("AST constructor
# recursion depth mismatch").
REPO=$PWD
set +e
(
  cd "$WORK" &&
    PYTHONPATH="$REPO/.ci" SCHEMATHESIS_HOOKS=schemathesis_hooks timeout --signal=INT --kill-after=30 "$SECONDS_LIMIT" \
      "$VENV/bin/schemathesis" --config-file "$REPO/.ci/schemathesis.toml" run openapi.json \
      --url "$LOADPLANE_URL" \
      --checks all \
      --phases examples,coverage,fuzzing,stateful \
      --max-examples "$EXAMPLES" \
      --exclude-path-regex '/log-stream$' \
      --request-timeout 20 \
      --workers 1 \
      --seed "${API_FUZZ_SEED:-$RANDOM}" \
      --no-color \
      </dev/null
) 2>&1 | sed -u 's/^/    | /'
# Indented: schemathesis closes like pytest ("=== 2 warnings in 41s ==="), and a CI reader taking that for the run's
# closing line would count no test at all; the run's own closing line is .ci/run's summary.
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 124 ] || [ "$status" -eq 130 ]; then
  echo "schemathesis did not finish within ${SECONDS_LIMIT}s" >&2
fi
exit "$status"
