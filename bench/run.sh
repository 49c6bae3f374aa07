#!/usr/bin/env bash
# `npm run bench`: PostgreSQL and Temporal of its own (data dir and ports apart from dev and test),
# migrated, then bench/main.ts, which starts the API, the worker and the baseline server, measures
# and prints the tables. Stops the services it started.
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/bench  SVC_PG_PORT=54322  SVC_PG_DB=svc_bench
#   SVC_TEMPORAL_PORT=7253    SVC_TEMPORAL_UI_PORT=8253
#   SVC_PG_FAST=0             PostgreSQL keeps fsync on: the numbers include durable commits
#   BENCH_KEEP_DATA=0         1 = keep the previous run's database and Temporal history
#   BENCH_TEMPORAL_TUNING=1   0 = Temporal dev server with scripts/temporal.sh's settings only
#   BENCH_CASES=create,e2e,gate,read,webhooks,knowledge,finance,turns,replicas   a subset, in this order
#                             soak (opt-in, not in the default list): BENCH_SOAK_MINUTES=10, see bench/README.md
#   BENCH_TURNS_RUNS=5        runs of each length in the turns case
#   BENCH_REPLICAS_IDEMPOTENT=50   keys sent to both APIs at once in the replicas case
#   BENCH_SECONDS=10 BENCH_WARMUP_SECONDS=3 BENCH_CONNECTIONS=10 BENCH_CONCURRENCY=8
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${SVC_DATA_DIR:=.data/bench}"
: "${SVC_PG_PORT:=54322}"
: "${SVC_PG_DB:=svc_bench}"
: "${SVC_TEMPORAL_PORT:=7253}"
: "${SVC_TEMPORAL_UI_PORT:=8253}"
: "${SVC_PG_FAST:=0}"
: "${SVC_AUTO_PORTS:=1}"
: "${BENCH_KEEP_DATA:=0}"
: "${BENCH_TEMPORAL_TUNING:=1}"

# shellcheck source=../scripts/services.sh
source scripts/services.sh
svc_own_services bench

svc_install_deps

# Every run starts from empty databases, so that one run's leftovers (open workflows, rows) never
# weigh on the next. Only this data dir is touched; services of another data dir keep running.
if [[ "$BENCH_KEEP_DATA" != 1 ]]; then
  bash scripts/postgres.sh stop >/dev/null 2>&1 || true
  bash scripts/temporal.sh stop >/dev/null 2>&1 || true
  rm -rf "$SVC_DATA_DIR/pg" "$SVC_DATA_DIR"/temporal.db* "$SVC_DATA_DIR/logs"
fi

# Temporal dev server settings on top of scripts/temporal.sh's (see bench/README.md): the wrapper
# adds them to `temporal server start-dev` and passes every other command through.
if [[ "$BENCH_TEMPORAL_TUNING" == 1 ]]; then
  BENCH_REAL_TEMPORAL_CLI="$(bash scripts/temporal-cli.sh)"
  export BENCH_REAL_TEMPORAL_CLI
  export BENCH_TEMPORAL_FLAGS="${BENCH_TEMPORAL_FLAGS-history.transferProcessorMaxPollRPS=1000 matching.numTaskqueueReadPartitions=1 matching.numTaskqueueWritePartitions=1 system.enableActivityEagerExecution=true}"
  export TEMPORAL_CLI="$PWD/bench/temporal-tuned.sh"
fi

svc_services_up
svc_migrate >&2

svc_log "running bench/main.ts (DATABASE_URL=$DATABASE_URL TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS)"
rc=0
npx tsx bench/main.ts || rc=$?
svc_services_down
exit "$rc"
