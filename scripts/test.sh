#!/usr/bin/env bash
# `npm test`: runs jest against a real PostgreSQL and Temporal of its own (separate data dir and
# ports from `npm run dev`, so both can run at once), type-checks and lints, then prints
# `N passed, N failed`.
#
# Extra arguments go to jest:  npm test -- test/api/foo.test.ts -t 'creates'
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/test  SVC_PG_PORT=54321  SVC_PG_DB=svc_test
#   SVC_TEMPORAL_PORT=7243   SVC_TEMPORAL_UI_PORT=8243  SVC_MARIADB_PORT=33061
#   SVC_PG_FAST=1     throwaway cluster: durability off for speed
#   SVC_AUTO_PORTS=1  move to free ports if these are taken by something else
#   SVC_SKIP_INSTALL=1 to never install dependencies (npm packages, Schemathesis, moto)
#   SVC_TEST_STORAGE=s3 to keep every test's file bytes in a moto S3 server (`npm run test:s3`); without
#                     it a full run (no jest arguments) runs the file tests a second time that way
# plus what scripts/postgres.sh and scripts/temporal.sh read. Services already running for this
# data dir are reused and left running; those this run started are stopped at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${SVC_DATA_DIR:=.data/test}"
: "${SVC_PG_PORT:=54321}"
: "${SVC_PG_DB:=svc_test}"
: "${SVC_TEMPORAL_PORT:=7243}"
: "${SVC_TEMPORAL_UI_PORT:=8243}"
: "${SVC_MARIADB_PORT:=33061}"
: "${SVC_PG_FAST:=1}"
: "${SVC_AUTO_PORTS:=1}"

# shellcheck source=services.sh
source scripts/services.sh
svc_own_services test
RESULTS="$SVC_DATA_DIR/jest-results.json"
S3_RESULTS="$SVC_DATA_DIR/jest-results-s3.json"

# A results file from an earlier run must never be mistaken for this one's (e.g. by .ci/run
# when this run fails before jest).
mkdir -p "$SVC_DATA_DIR"
rm -f "$RESULTS" "$S3_RESULTS"

# The tools below are independent downloads into .tools/ (PyPI, Maven Central) that take most of a fresh
# clone's set-up, so they install at once, beside the npm install and the console build; each prints its path
# into a file of its own, read when the tests need it.
TOOL_PATHS="$SVC_DATA_DIR/tool-paths"
mkdir -p "$TOOL_PATHS"
declare -A tool_pids=()
for tool in schemathesis temporal-test-server moto llmock; do
  bash "scripts/$tool.sh" >"$TOOL_PATHS/$tool" &
  tool_pids[$tool]=$!
done
# svc_tool_path VAR TOOL: sets VAR to the path TOOL's script found or installed; fails when it could not.
# (Called in this shell, never in $(...): only the shell that started a job can wait for it.)
svc_tool_path() {
  wait "${tool_pids[$2]}" && [[ -s "$TOOL_PATHS/$2" ]] || return 1
  printf -v "$1" '%s' "$(cat "$TOOL_PATHS/$2")"
}

svc_install_deps
svc_console_install
svc_console_build
svc_ensure_chromium

# The schema fuzzer of test/fuzz/ (docs/testing.md), in its own venv under .tools/. Without it only
# that test fails (saying why), not the whole run: say, offline, or SVC_SKIP_INSTALL=1 before it was
# ever installed.
if svc_tool_path SVC_SCHEMATHESIS schemathesis; then
  export SVC_SCHEMATHESIS
else
  svc_log "Schemathesis is not available; test/fuzz/schemathesis.test.ts will fail"
fi
# Temporal's time-skipping test server for the workflow tests of test/workflows/ (Java, resolved with
# Maven into .tools/; docs/testing.md). Without it only those tests fail, saying why.
if svc_tool_path SVC_TEMPORAL_TEST_SERVER temporal-test-server; then
  export SVC_TEMPORAL_TEST_SERVER
else
  svc_log "Temporal's test server is not available; the tests of test/workflows/ will fail"
fi
# The S3-compatible server (moto, scripts/moto.sh) that test/platform/s3Storage.test.ts, the S3 pass below and
# `npm run test:s3` start on 127.0.0.1, in its own venv under .tools/. Without it only the tests that need it fail.
if svc_tool_path SVC_MOTO_SERVER moto; then
  export SVC_MOTO_SERVER
else
  svc_log "moto is not available; the s3:// storage tests will fail"
fi
# The OpenAI-compatible server (LLMock, scripts/llmock.sh) that test/domain/models/realServer.test.ts starts on
# 127.0.0.1, in its own venv under .tools/. Without it only that test fails.
if svc_tool_path SVC_LLMOCK llmock; then
  export SVC_LLMOCK
else
  svc_log "LLMock is not available; test/domain/models/realServer.test.ts will fail"
fi
svc_services_up
svc_migrate
svc_throwaway_secrets_key

# The benchmarks and drills are not run by jest; the type check keeps them (and everything else) honest. The
# three checks are independent, and each is bound by one core. They start with jest, at the lowest CPU priority:
# jest keeps both cores busy most of the time, so the checks take only the moments its tests wait (a timer,
# Temporal, a browser), and what is left of them runs side by side after it (docs/testing.md#speed). Each writes a
# log of its own, printed once all have ended.
svc_log "type-checking (tsc --noEmit) and linting (eslint) in the background, at the lowest CPU priority"
CHECKS="$SVC_DATA_DIR/checks"
mkdir -p "$CHECKS"
nice -n 19 npx tsc -p tsconfig.json --noEmit >"$CHECKS/tsc.log" 2>&1 &
tsc_pid=$!
# The console is a package of its own (docs/console.md), with the DOM's types and JSX.
console_pid=
if [[ -d console/node_modules ]]; then
  (cd console && nice -n 19 npx --no-install tsc -p tsconfig.json --noEmit) >"$CHECKS/console-tsc.log" 2>&1 &
  console_pid=$!
fi
# Floating and misused promises, the workflow sandbox's import rules and the pattern rules (eslint.config.mjs).
nice -n 19 npm run --silent lint >"$CHECKS/eslint.log" 2>&1 &
lint_pid=$!

svc_log "running jest (DATABASE_URL=$DATABASE_URL TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS)"
jest_rc=0
# --forceExit: a test that leaks a handle must not hold CI until its time limit.
npx jest --json --outputFile="$RESULTS" --forceExit "$@" || jest_rc=$?

# The tests whose files reach the storage, again with every byte in a moto S3 server (SVC_TEST_STORAGE=s3,
# test/helpers/globalDns.ts), so `s3://` storage answers to the same tests as a directory. Only in a full run
# (no jest arguments; a run of chosen files runs what it was asked), counted in the same closing line.
S3_TESTS=(
  test/api/files.test.ts
  test/apps/uploads.test.ts
  test/runs/artifactsReport.test.ts
  test/finance/runs.test.ts
  test/dataSources/files.test.ts
  test/domain/knowledge/searchStorage.test.ts
)
results_files=("$RESULTS")
if (($# == 0)) && [[ "${SVC_TEST_STORAGE:-}" != s3 ]]; then
  svc_log "running the file tests again on S3 (moto): ${S3_TESTS[*]}"
  s3_started=$SECONDS
  SVC_TEST_STORAGE=s3 npx jest --json --outputFile="$S3_RESULTS" --forceExit "${S3_TESTS[@]}" || jest_rc=$?
  svc_log "the S3 pass took $((SECONDS - s3_started)) s"
  results_files+=("$S3_RESULTS")
fi

# Stop the services before the summary, so that the summary is the last line printed.
svc_services_down

svc_log "waiting for the type check and the lint"
typecheck_rc=0
lint_rc=0
wait "$tsc_pid" || typecheck_rc=$?
if [[ -n "$console_pid" ]]; then
  wait "$console_pid" || typecheck_rc=$?
fi
wait "$lint_pid" || lint_rc=$?
for check in tsc console-tsc eslint; do
  [[ -s "$CHECKS/$check.log" ]] && cat "$CHECKS/$check.log"
done
svc_log "tsc: $( ((typecheck_rc == 0)) && echo clean || echo "failed ($typecheck_rc)"); eslint: $( ((lint_rc == 0)) && echo clean || echo "failed ($lint_rc)")"

summary_rc=0
node scripts/jest-summary.js "${results_files[@]}" || summary_rc=$?
if ((jest_rc != 0)); then
  exit "$jest_rc"
fi
if ((typecheck_rc != 0)); then
  exit "$typecheck_rc"
fi
if ((lint_rc != 0)); then
  exit "$lint_rc"
fi
exit "$summary_rc"
