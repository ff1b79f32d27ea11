#!/usr/bin/env bash
# Installs Locust (from PyPI) into a virtual environment at ~/.cache/loadplane/locust/<version>, for the Locust plugin's
# contract and integration tests and for agents. The venv is made with the system's /usr/bin/python3 when there is one:
# the agent's tool sandbox hides the agent's home, so a Python under ~ (pyenv) would not be there for the tool.
# Locust 2.47 needs Python >= 3.11. Idempotent (nothing to do when the right version answers); run through
# scripts/install-engines or alone.
set -euo pipefail

LOCUST_VERSION=2.47.0
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
VENV="$HOME/.cache/loadplane/locust/$LOCUST_VERSION"
LOCUST="$VENV/bin/locust"

locust_ok() { [ -x "$LOCUST" ] && "$LOCUST" --version 2>/dev/null | grep -q "^locust $LOCUST_VERSION "; }

if locust_ok; then
  echo "locust: $LOCUST_VERSION at $LOCUST"
  exit 0
fi

PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3 || true)
[ -n "$PYTHON" ] || { echo "locust: cannot install $LOCUST_VERSION: python3 is not installed (apt-get install python3 python3-venv)" >&2; exit 1; }
rm -rf "$VENV"
mkdir -p "$(dirname "$VENV")"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$SECONDS
{
  "$PYTHON" -m venv "$VENV" &&
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "locust==$LOCUST_VERSION"
} >"$log" 2>&1 || { cat "$log" >&2; echo "locust: install of $LOCUST_VERSION failed" >&2; rm -rf "$VENV"; exit 1; }
# Agents run tools as another user (the sandbox drops root): everything must be readable by all.
chmod -R a+rX "$VENV"
locust_ok || { echo "locust: installed locust does not report $LOCUST_VERSION: $("$LOCUST" --version 2>&1 | head -n 1)" >&2; exit 1; }
echo "locust: $LOCUST_VERSION at $LOCUST (installed with $("$PYTHON" --version 2>&1) in $((SECONDS - start))s)"
