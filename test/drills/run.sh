#!/usr/bin/env bash
# `npm run drill`: failure drills against real processes, on PostgreSQL and Temporal of their own
# (the drills stop and restart both, so never those of dev or test). Starts from empty databases,
# stops the services it started, exits non-zero when any drill fails.
#
#   npm run drill                       every drill
#   npm run drill -- api-kill           one (worker-kill, api-kill, temporal-restart, postgres-outage, webhook-receivers, eval-kill, flow-kill, conversation-kill)
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/drill  SVC_PG_PORT=54323  SVC_PG_DB=svc_drill
#   SVC_TEMPORAL_PORT=7263    SVC_TEMPORAL_UI_PORT=8263   DRILL_API_PORT=4410
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

: "${SVC_DATA_DIR:=.data/drill}"
: "${SVC_PG_PORT:=54323}"
: "${SVC_PG_DB:=svc_drill}"
: "${SVC_TEMPORAL_PORT:=7263}"
: "${SVC_TEMPORAL_UI_PORT:=8263}"
: "${SVC_PG_FAST:=1}"
: "${SVC_AUTO_PORTS:=1}"

# shellcheck source=../../scripts/services.sh
source scripts/services.sh
svc_own_services drill
svc_throwaway_secrets_key

svc_install_deps

# A clean slate: an earlier drill's runs and workflows must not be counted by this one.
bash scripts/postgres.sh stop >/dev/null 2>&1 || true
bash scripts/temporal.sh stop >/dev/null 2>&1 || true
rm -rf "$SVC_DATA_DIR/pg" "$SVC_DATA_DIR"/temporal.db* "$SVC_DATA_DIR/logs"

svc_services_up
svc_migrate >&2

svc_log "running the drills (DATABASE_URL=$DATABASE_URL TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS)"
rc=0
npx tsx test/drills/main.ts "$@" || rc=$?
svc_services_down
exit "$rc"
