#!/usr/bin/env bash
# The whole suite on a loaded machine: two copies of `npm test` at once (two clones of HEAD sharing this checkout's
# node_modules by hard links), first on PGlite, then on PostgreSQL, each copy with a PostgreSQL server of its own.
# Tests wait on conditions, never on time, so both copies must pass both times; CI mode makes a skipped suite fail.
#
#   bash scripts/suite-under-load.sh            # after npm ci (and the engines, as for .ci/run); logs in $WORK
#
# Prints each copy's pass/fail counts and exits 1 when any copy failed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${WORK:-$(mktemp -d /tmp/loadplane-under-load.XXXXXX)}"
PG_BIN=""
for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/initdb" ] && PG_BIN=$dir; done
[ -n "$PG_BIN" ] || { echo "suite-under-load: no PostgreSQL server binaries (bash .ci/run installs them)" >&2; exit 2; }
# initdb refuses root: as root, the servers run as `postgres`.
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

declare -A url
start_postgres() { # copy
  local dir="$WORK/pg-$1" port
  mkdir -p "$dir" && chmod 700 "$dir"
  [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$dir"
  as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=trust -E UTF8 --locale=C --no-sync >/dev/null || exit 1
  port=$(free_port)
  as_pg "$PG_BIN/pg_ctl" start -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >/dev/null || exit 1
  as_pg "$PG_BIN/psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres -c "CREATE ROLE loadplane LOGIN CREATEDB" \
    -c "GRANT pg_signal_backend TO loadplane" -c "CREATE DATABASE loadplane OWNER loadplane" || exit 1
  url[$1]="postgres://loadplane@127.0.0.1:$port/loadplane"
}
stop_postgres() { for copy in a b; do [ -d "$WORK/pg-$copy/data" ] && as_pg "$PG_BIN/pg_ctl" stop -D "$WORK/pg-$copy/data" -m fast -w >/dev/null 2>&1; done; }
trap stop_postgres EXIT

for copy in a b; do
  git clone -q "$root" "$WORK/copy-$copy" || exit 1
  # The installed and built parts (gitignored): node_modules by hard links, the kit's and the UI's builds copied.
  cp -al "$root/node_modules" "$WORK/copy-$copy/node_modules"
  for built in packages/plugin-kit/dist ui/dist; do [ -d "$root/$built" ] && cp -a "$root/$built" "$WORK/copy-$copy/$built"; done
  start_postgres "$copy"
done

failed=0
for pass in pglite postgres; do
  echo "$(date +%T) $pass: two copies of npm test at once"
  for copy in a b; do
    database=()
    [ "$pass" = postgres ] && database=(DATABASE_URL="${url[$copy]}")
    (cd "$WORK/copy-$copy" && env -u DATABASE_URL CI=true FORCE_COLOR=0 TEST_POSTGRES_URL="${url[$copy]}" "${database[@]}" npm test \
      >"$WORK/$copy-$pass.log" 2>&1 </dev/null) &
  done
  wait
  for copy in a b; do
    counts=$(grep -E '^ [0-9]+ (pass|fail|skip|todo)$' "$WORK/$copy-$pass.log" | tr -s ' \n' ' ')
    echo "  copy $copy:$counts($WORK/$copy-$pass.log)"
    grep -E '^ [0-9]+ fail$' "$WORK/$copy-$pass.log" | grep -qv '^ 0 fail$' && failed=1
    grep -qE '^ [0-9]+ (pass)$' "$WORK/$copy-$pass.log" || failed=1
    grep -E '^\(fail\)' "$WORK/$copy-$pass.log" | head -20
  done
done
echo "$(date +%T) done"
exit $failed
