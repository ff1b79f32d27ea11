#!/usr/bin/env bash
# hey's installer lives in its plugin (examples/loadplane-plugin-hey/install-engine.sh), as a third party's would; this
# keeps `bash scripts/install-engines hey` (and CI's install of every engine) working by running it.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../examples/loadplane-plugin-hey/install-engine.sh" "$@"
