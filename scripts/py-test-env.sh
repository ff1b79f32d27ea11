#!/bin/sh
# Python clients the tests drive the service with (prometheus-api-client for the Prometheus API), in one venv under
# ~/.cache/loadplane/py-test; idempotent. Prints the venv's python.
set -eu
dir="${LOADPLANE_CACHE:-$HOME/.cache/loadplane}/py-test"
want="prometheus-api-client==0.7.2"
if [ ! -x "$dir/bin/python" ] || [ "$(cat "$dir/.installed" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$dir" >&2
  "$dir/bin/pip" install --quiet --disable-pip-version-check "$want" >&2
  echo "$want" > "$dir/.installed"
fi
echo "$dir/bin/python"
