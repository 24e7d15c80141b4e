#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine with Node 20: installs what is missing
# (Chromium, PostgreSQL and nginx from Debian, node_modules), starts a throwaway PostgreSQL cluster, then
# runs the type check, unit tests, server tests (SQLite and PostgreSQL), the production build and
# the end-to-end tests in Chromium. Ends with one summary line; exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
# The deployment test's reverse proxy (tests/e2e/deployment.spec.ts); openssl makes its certificate.
[ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing from Debian: ${missing[*]}"
  as_root apt-get update -qq || exit 1
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || exit 1
fi
[ -d node_modules ] || npm ci || exit 1

# --- throwaway PostgreSQL cluster -------------------------------------------------------------
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PGTMP=$(mktemp -d /tmp/cairn-pg.XXXXXX)
PGPORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
run_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$PGTMP"
stop_pg() { run_pg "$PGBIN/pg_ctl -D $PGTMP/data -m immediate stop" >/dev/null 2>&1; rm -rf "$PGTMP"; }
trap stop_pg EXIT
run_pg "$PGBIN/initdb -D $PGTMP/data -A trust -U postgres --no-sync" >/dev/null || { echo "initdb failed"; exit 1; }
run_pg "$PGBIN/pg_ctl -D $PGTMP/data -w -l $PGTMP/log -o \"-p $PGPORT -k $PGTMP -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200\" start" >/dev/null \
  || { echo "PostgreSQL did not start:"; cat "$PGTMP/log"; exit 1; }
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
export REQUIRE_POSTGRES=1
echo "PostgreSQL test cluster on port $PGPORT"

status=0
step() { echo; echo "== $1"; shift; "$@" || { echo "!! failed: $*"; status=1; }; }

# The type check and the production build run beside the unit and server tests (those wait on
# PostgreSQL and the disk often enough to leave room); their output follows the tests' output.
(npm run --silent typecheck:all > .tmp/typecheck.log 2>&1; echo $? > .tmp/typecheck.rc) &
typecheck_pid=$!
(npx vite build --logLevel warn > .tmp/build.log 2>&1; echo $? > .tmp/build.rc) &
build_pid=$!
step "Unit and server tests (SQLite and PostgreSQL)" npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
wait $typecheck_pid $build_pid
reported() { cat "$2"; [ "$(cat "$3")" = 0 ]; }
step "Type check" reported typecheck .tmp/typecheck.log .tmp/typecheck.rc
step "Production build" reported build .tmp/build.log .tmp/build.rc
step "End-to-end tests (Chromium)" npx playwright test

node scripts/summarizeTests.mjs .tmp/vitest.json .tmp/playwright.json || status=1
exit $status
