#!/usr/bin/env bash
# `npm run bench`: PostgreSQL and Temporal of its own (data dir and ports apart from dev and test),
# migrated, then bench/main.ts, which starts the API, the worker and the baseline server, measures
# and prints the tables. Stops the services it started.
#
#   npm run bench -- --repeat 5   five runs back to back, each from empty databases; every target is
#                                 judged on the median of the five (bench/summarize.ts)
#   npm run bench -- big-tables   the cases named (here an opt-in one), as BENCH_CASES=big-tables would
#   npm run bench -- --quick      a smoke run: cases 1, 2, 3 and 8 for 2 s each, a short warm-up; writes
#                                 .data/bench/quick.json, never bench/results/latest.json
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/bench  SVC_PG_PORT=54322  SVC_PG_DB=svc_bench
#   SVC_TEMPORAL_PORT=7253    SVC_TEMPORAL_UI_PORT=8253
#   SVC_PG_FAST=0             PostgreSQL keeps fsync on: the numbers include durable commits
#   BENCH_KEEP_DATA=0         1 = keep the previous run's database and Temporal history
#   BENCH_TEMPORAL_TUNING=1   0 = Temporal dev server with scripts/temporal.sh's settings only
#   BENCH_TEMPORAL=dev        pg = the real Temporal server on the bench's PostgreSQL (scripts/temporal-pg.sh,
#                             the production shape) instead of the dev server; for run-cost (docs/capacity.md)
#   BENCH_CASES=create,e2e,gate,read,webhooks,knowledge,finance,turns,replicas   a subset, in this order
#                             soak (opt-in, not in the default list): BENCH_SOAK_MINUTES=10, see bench/README.md
#                             big-tables, run-cost (opt-in): a run of opt-in cases alone writes
#                             $SVC_DATA_DIR/<cases>.json, never bench/results/latest.json; big-tables
#                             removes the bench's PostgreSQL data (gigabytes) once the run is over
#   BENCH_TURNS_RUNS=5        runs of each length in the turns case
#   BENCH_REPLICAS_IDEMPOTENT=50   keys sent to both APIs at once in the replicas case
#   BENCH_SECONDS=10 BENCH_WARMUP_SECONDS=3 BENCH_CONNECTIONS=10 BENCH_CONCURRENCY=8
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

repeat=1
quick=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repeat) repeat="${2:-}"; shift 2 ;;
    --repeat=*) repeat="${1#--repeat=}"; shift ;;
    --quick) quick=1; shift ;;
    -*) echo "bench/run.sh: unknown argument $1 (--repeat N, --quick, case names)" >&2; exit 2 ;;
    *) named="${named:+$named,}$1"; shift ;;
  esac
done
# `npm run bench -- big-tables run-cost`: cases by name, as BENCH_CASES would name them
if [[ -n "${named:-}" ]]; then export BENCH_CASES="$named"; fi
if ! [[ "$repeat" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench/run.sh: --repeat takes a whole number of runs, at least 1" >&2
  exit 2
fi
if [[ "$quick" == 1 ]]; then
  export BENCH_CASES="${BENCH_CASES:-create,e2e,gate,turns}"
  export BENCH_SECONDS="${BENCH_SECONDS:-2}" BENCH_WARMUP_SECONDS="${BENCH_WARMUP_SECONDS:-1}"
  export BENCH_TURNS_RUNS="${BENCH_TURNS_RUNS:-1}" BENCH_WARMUP_RUNS="${BENCH_WARMUP_RUNS:-3}"
fi

: "${SVC_DATA_DIR:=.data/bench}"
: "${SVC_PG_PORT:=54322}"
: "${SVC_PG_DB:=svc_bench}"
: "${SVC_TEMPORAL_PORT:=7253}"
: "${SVC_TEMPORAL_UI_PORT:=8253}"
: "${SVC_PG_FAST:=0}"
: "${SVC_AUTO_PORTS:=1}"
: "${BENCH_KEEP_DATA:=0}"
: "${BENCH_TEMPORAL_TUNING:=1}"
: "${BENCH_TEMPORAL:=dev}"
export SVC_TEMPORAL_SERVER="$BENCH_TEMPORAL"
if [[ "$BENCH_TEMPORAL" == pg ]]; then
  # the dev server's flags do not apply to the real server, and the bench needs no UI
  BENCH_TEMPORAL_TUNING=0
  export SVC_TEMPORAL_UI=0
fi

# shellcheck source=../scripts/services.sh
source scripts/services.sh
svc_own_services bench
svc_throwaway_secrets_key

svc_install_deps

# Temporal dev server settings on top of scripts/temporal.sh's (see bench/README.md): the wrapper
# adds them to `temporal server start-dev` and passes every other command through.
if [[ "$BENCH_TEMPORAL_TUNING" == 1 ]]; then
  BENCH_REAL_TEMPORAL_CLI="$(bash scripts/temporal-cli.sh)"
  export BENCH_REAL_TEMPORAL_CLI
  export BENCH_TEMPORAL_FLAGS="${BENCH_TEMPORAL_FLAGS-history.transferProcessorMaxPollRPS=1000 matching.numTaskqueueReadPartitions=1 matching.numTaskqueueWritePartitions=1 system.enableActivityEagerExecution=true}"
  export TEMPORAL_CLI="$PWD/bench/temporal-tuned.sh"
fi

runs_dir="$SVC_DATA_DIR/runs"
rm -rf "$runs_dir"
mkdir -p "$runs_dir"
outputs=()
rc=0
for ((i = 1; i <= repeat; i++)); do
  # Every run starts from empty databases, so that one run's leftovers (open workflows, rows) never
  # weigh on the next. Only this data dir is touched; services of another data dir keep running.
  if [[ "$BENCH_KEEP_DATA" != 1 ]]; then
    bash scripts/postgres.sh stop >/dev/null 2>&1 || true
    bash scripts/temporal.sh stop >/dev/null 2>&1 || true
    bash scripts/temporal-pg.sh stop >/dev/null 2>&1 || true
    rm -rf "$SVC_DATA_DIR/pg" "$SVC_DATA_DIR"/temporal.db* "$SVC_DATA_DIR/temporal-server" "$SVC_DATA_DIR/logs"
  fi
  svc_services_up
  svc_migrate >&2
  svc_log "run $i of $repeat: bench/main.ts (DATABASE_URL=$DATABASE_URL TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS)"
  BENCH_OUTPUT="$runs_dir/run-$i.json" npx tsx bench/main.ts || rc=$?
  svc_services_down
  # the big-tables case leaves gigabytes of seeded rows: the bench database goes with them
  if [[ ",${BENCH_CASES:-}," == *,big-tables,* && "$BENCH_KEEP_DATA" != 1 ]]; then rm -rf "$SVC_DATA_DIR/pg"; fi
  [[ "$rc" == 0 ]] || exit "$rc"
  outputs+=("$runs_dir/run-$i.json")
done

# Opt-in cases alone (big-tables, run-cost, soak, soakbase) are not the verdict's runs: their numbers go beside
# the data, and bench/README.md and docs/capacity.md quote them.
opt_in_only=0
if [[ -n "${BENCH_CASES:-}" && ! ",$BENCH_CASES," =~ ,(create|e2e|gate|read|webhooks|knowledge|finance|turns|replicas), ]]; then
  opt_in_only=1
fi
if [[ "$quick" == 1 ]]; then
  out="$SVC_DATA_DIR/quick.json"
elif [[ "$opt_in_only" == 1 ]]; then
  out="$SVC_DATA_DIR/${BENCH_CASES//,/-}.json"
else
  out=bench/results/latest.json
fi
npx tsx bench/summarize.ts "$out" "${outputs[@]}"
