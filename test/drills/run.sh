#!/usr/bin/env bash
# `npm run drill`: failure drills against real processes, on PostgreSQL and Temporal of their own
# (the drills stop and restart both, so never those of dev or test). Starts from empty databases,
# stops the services it started, exits non-zero when any drill fails.
#
#   npm run drill                       every drill but topology; with SVC_DRILL_TOPOLOGY=1, topology too
#   npm run drill -- topology           the production shape's drill (it needs the Temporal server built by
#                                       scripts/temporal-server.sh: a cold Go build of many minutes)
#   npm run drill -- api-kill           one (worker-kill, api-kill, temporal-restart, postgres-outage, webhook-receivers, eval-kill, flow-kill, conversation-kill, topology)
#
# `topology` runs on the production shape instead (scripts/topology.sh --fresh: two APIs, two workers,
# Temporal on PostgreSQL, S3 storage in moto), with services of its own on ports of its own.
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/drill  SVC_PG_PORT=54323  SVC_PG_DB=svc_drill
#   SVC_TEMPORAL_PORT=7263    SVC_TEMPORAL_UI_PORT=8263   DRILL_API_PORT=4410
#   for topology: DRILL_TOPOLOGY_DATA_DIR=.data/drill-topology  DRILL_TOPOLOGY_PG_PORT=54333
#                 DRILL_TOPOLOGY_TEMPORAL_PORT=7283 (and the next seven, or from DRILL_TOPOLOGY_TEMPORAL_INTERNAL_PORT)
#                 DRILL_TOPOLOGY_PORT=4420 (the entry point; the APIs on the next two, moto on the third, or
#                 DRILL_TOPOLOGY_API_PORTS=a,b and DRILL_TOPOLOGY_MOTO_PORT)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

: "${SVC_DATA_DIR:=.data/drill}"
: "${SVC_PG_PORT:=54323}"
: "${SVC_PG_DB:=svc_drill}"
: "${SVC_TEMPORAL_PORT:=7263}"
: "${SVC_TEMPORAL_UI_PORT:=8263}"
: "${SVC_PG_FAST:=1}"
: "${SVC_AUTO_PORTS:=1}"

CLASSIC=()
TOPOLOGY=0
if (($# == 0)); then
  CLASSIC=(all)
  [[ "${SVC_DRILL_TOPOLOGY:-0}" == 1 ]] && TOPOLOGY=1
else
  for name in "$@"; do
    if [[ "$name" == topology ]]; then TOPOLOGY=1; else CLASSIC+=("$name"); fi
  done
fi

# Each program prints `N of M drills passed in S s` last; the counts are added up into one such line.
TOTAL_PASSED=0
TOTAL_RUN=0
tally() {
  local line
  line="$(grep -E '^[0-9]+ of [0-9]+ drills passed' "$1" | tail -n 1)" || return 0
  TOTAL_PASSED=$((TOTAL_PASSED + $(cut -d' ' -f1 <<<"$line")))
  TOTAL_RUN=$((TOTAL_RUN + $(cut -d' ' -f3 <<<"$line")))
}
STARTED_AT=$SECONDS
rc=0

# shellcheck source=../../scripts/services.sh
source scripts/services.sh
svc_own_services drill
svc_install_deps
mkdir -p .data

if ((${#CLASSIC[@]})); then
  svc_throwaway_secrets_key
  # A clean slate: an earlier drill's runs and workflows must not be counted by this one.
  bash scripts/postgres.sh stop >/dev/null 2>&1 || true
  bash scripts/temporal.sh stop >/dev/null 2>&1 || true
  rm -rf "$SVC_DATA_DIR/pg" "$SVC_DATA_DIR"/temporal.db* "$SVC_DATA_DIR/logs"

  svc_services_up
  svc_migrate >&2

  svc_log "running the drills (DATABASE_URL=$DATABASE_URL TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS)"
  [[ "${CLASSIC[0]}" == all ]] && CLASSIC=()
  npx tsx test/drills/main.ts "${CLASSIC[@]}" | tee .data/drill-classic.out || rc=$?
  svc_services_down
  tally .data/drill-classic.out
fi

if ((TOPOLOGY)); then
  code=0
  # Said first and plainly: without a built server the drill cannot run at all, and a build is many minutes.
  if ! server_dir="$(bash scripts/temporal-server.sh)"; then
    echo "VERDICT topology: FAIL (no Temporal server binary: build it once with bash scripts/temporal-server.sh, or set SVC_TEMPORAL_SERVER_DIR; see the message above)" |
      tee .data/drill-topology.out
    code=1
  else
    svc_log "running the topology drill on the production shape (scripts/topology.sh --fresh; Temporal server in $server_dir)"
    (
      export SVC_DATA_DIR="${DRILL_TOPOLOGY_DATA_DIR:-.data/drill-topology}"
      export SVC_PG_PORT="${DRILL_TOPOLOGY_PG_PORT:-54333}" SVC_PG_DB=svc_drill
      export SVC_TEMPORAL_PORT="${DRILL_TOPOLOGY_TEMPORAL_PORT:-7283}"
      export SVC_TOPOLOGY_PORT="${DRILL_TOPOLOGY_PORT:-4420}"
      export SVC_TEMPORAL_UI=0
      unset SVC_SECRETS_KEY SVC_AUTO_PORTS SVC_TEMPORAL_INTERNAL_PORT SVC_TOPOLOGY_API_PORTS SVC_TOPOLOGY_MOTO_PORT
      [[ -n "${DRILL_TOPOLOGY_TEMPORAL_INTERNAL_PORT:-}" ]] && export SVC_TEMPORAL_INTERNAL_PORT="$DRILL_TOPOLOGY_TEMPORAL_INTERNAL_PORT"
      [[ -n "${DRILL_TOPOLOGY_API_PORTS:-}" ]] && export SVC_TOPOLOGY_API_PORTS="$DRILL_TOPOLOGY_API_PORTS"
      [[ -n "${DRILL_TOPOLOGY_MOTO_PORT:-}" ]] && export SVC_TOPOLOGY_MOTO_PORT="$DRILL_TOPOLOGY_MOTO_PORT"
      bash scripts/topology.sh --fresh --run node_modules/.bin/tsx test/drills/topology.ts
    ) | tee .data/drill-topology.out || code=$?
  fi
  ((code == 0)) || rc=$code
  grep -q '^VERDICT topology: PASS' .data/drill-topology.out && TOTAL_PASSED=$((TOTAL_PASSED + 1))
  TOTAL_RUN=$((TOTAL_RUN + 1))
fi

if ((TOPOLOGY)); then
  echo
  echo "$TOTAL_PASSED of $TOTAL_RUN drills passed in $((SECONDS - STARTED_AT)) s"
fi
exit "$rc"
