#!/usr/bin/env bash
# The production-shaped Temporal server (docs/operations.md): the real `temporal-server` persisting to
# PostgreSQL (the `postgres12` plugin, 4 history shards), in two processes, kept under $SVC_DATA_DIR:
#   the frontend          gRPC on 127.0.0.1:$SVC_TEMPORAL_PORT, what every client talks to;
#   history, matching and the system worker, in a second process.
# Split so that the frontend can be restarted alone, as a rolling deploy or a crash of one frontend
# would (the topology drill does it); the two find each other through the membership table in the database.
#
# Usage: scripts/temporal-pg.sh start|stop|status|stop-frontend
#   start          creates Temporal's two databases in the project's PostgreSQL cluster when missing,
#                  applies the schema versions shipped with the server (temporal-sql-tool), starts
#                  whichever of the two processes is not running, then creates the namespace and the
#                  search attributes the workflows set when missing
#   stop-frontend  stops the frontend process only (start brings it back)
#
# Environment:
#   SVC_DATA_DIR                where its files live (default: .data/topology)
#   SVC_PG_PORT                 the PostgreSQL cluster (scripts/postgres.sh; default 54330), user postgres
#   SVC_TEMPORAL_DB             its database (default temporal; visibility in <db>_visibility)
#   SVC_TEMPORAL_PORT           the frontend's gRPC port (default 7273)
#   SVC_TEMPORAL_INTERNAL_PORT  the first of seven more: the frontend's membership port, then the gRPC and
#                               membership ports of history, matching and the system worker (default PORT+1)
#   SVC_TEMPORAL_UI_PORT        Temporal UI on 127.0.0.1 (default: PORT + 1000); SVC_TEMPORAL_UI=0: no UI
#   SVC_TEMPORAL_START_TIMEOUT  seconds to wait for readiness (default: 120)
#   SVC_TEMPORAL_STOP_TIMEOUT   seconds between SIGTERM and SIGKILL on stop (default: 15)
#
# Files in $SVC_DATA_DIR/temporal-server: config/topology.yaml, dynamicconfig.yaml, ui-config/topology.yaml,
# schema.log (temporal-sql-tool's output), and a log and a pid file per process (frontend, core, ui).
set -euo pipefail

SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/common.sh
source "$SCRIPTS_DIR/lib/common.sh"
SVC_LOG_TAG=temporal-pg

DATA_DIR="$(svc_abspath "${SVC_DATA_DIR:-.data/topology}")"
STATE_DIR="$DATA_DIR/temporal-server"
PG_PORT="${SVC_PG_PORT:-54330}"
DB="${SVC_TEMPORAL_DB:-temporal}"
VIS_DB="${DB}_visibility"
PORT="${SVC_TEMPORAL_PORT:-7273}"
INTERNAL="${SVC_TEMPORAL_INTERNAL_PORT:-$((PORT + 1))}"
UI_PORT="${SVC_TEMPORAL_UI_PORT:-$((PORT + 1000))}"
START_TIMEOUT="${SVC_TEMPORAL_START_TIMEOUT:-120}"
STOP_TIMEOUT="${SVC_TEMPORAL_STOP_TIMEOUT:-15}"

ADDRESS="127.0.0.1:$PORT"
NAMESPACE=default
# The workflows' search attributes, all Keyword (the same list as scripts/temporal.sh).
SEARCH_ATTRIBUTES=(SvcWorkspaceId SvcAgentId SvcRunStatus)

[[ "$PORT" =~ ^[0-9]+$ && "$INTERNAL" =~ ^[0-9]+$ && "$PG_PORT" =~ ^[0-9]+$ ]] ||
  svc_die "SVC_TEMPORAL_PORT, SVC_TEMPORAL_INTERNAL_PORT and SVC_PG_PORT must be numbers"
[[ "$DB" =~ ^[a-z_][a-z0-9_]*$ ]] || svc_die "SVC_TEMPORAL_DB must be a plain lower-case name"

# --- state --------------------------------------------------------------------------------------

# A process of ours runs when its pid file names a live temporal-server started with our config.
role_pid() {
  local pid file="$STATE_DIR/$1.pid"
  [[ -f "$file" ]] || return 1
  pid="$(cat "$file")"
  svc_pid_alive "$pid" || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -e "$STATE_DIR" -e "$STATE_DIR/config/topology.yaml" || return 1
  printf '%s\n' "$pid"
}

# The service counts as running while its core (history, matching) runs: a frontend restart is a
# moment of the running service, not its stop.
svc_running_pid() {
  role_pid core || role_pid frontend
}

svc_running_summary() {
  local fe="down"
  fe="$(role_pid frontend)" && fe="pid $fe"
  local ui=""
  role_pid ui >/dev/null && ui=", UI http://127.0.0.1:$UI_PORT"
  echo "running (core pid $1, frontend $fe) on 127.0.0.1:$PORT$ui, data $STATE_DIR (PostgreSQL 127.0.0.1:$PG_PORT/$DB)"
}

cli() {
  timeout 15 "$CLI" "$@" --address "$ADDRESS"
}

psql_admin() {
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$@"
}

# --- set-up -------------------------------------------------------------------------------------

write_config() {
  mkdir -p "$STATE_DIR/config"
  # No archival, no metrics endpoint, no pprof: nothing listens beyond the eight ports named here.
  cat >"$STATE_DIR/config/topology.yaml" <<EOF
log:
  stdout: true
  level: warn

persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:
      sql:
        pluginName: postgres12
        databaseName: $DB
        connectAddr: "127.0.0.1:$PG_PORT"
        connectProtocol: tcp
        user: postgres
        password: ""
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: 1h
    visibility:
      sql:
        pluginName: postgres12
        databaseName: $VIS_DB
        connectAddr: "127.0.0.1:$PG_PORT"
        connectProtocol: tcp
        user: postgres
        password: ""
        maxConns: 4
        maxIdleConns: 4
        maxConnLifetime: 1h

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"

services:
  frontend:
    rpc:
      grpcPort: $PORT
      membershipPort: $INTERNAL
      bindOnLocalHost: true
  history:
    rpc:
      grpcPort: $((INTERNAL + 1))
      membershipPort: $((INTERNAL + 2))
      bindOnLocalHost: true
  matching:
    rpc:
      grpcPort: $((INTERNAL + 3))
      membershipPort: $((INTERNAL + 4))
      bindOnLocalHost: true
  worker:
    rpc:
      grpcPort: $((INTERNAL + 5))
      membershipPort: $((INTERNAL + 6))
      bindOnLocalHost: true

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "127.0.0.1:$PORT"

dcRedirectionPolicy:
  policy: noop

dynamicConfigClient:
  filepath: "$STATE_DIR/dynamicconfig.yaml"
  pollInterval: 10s
EOF
  # What the dev server turns on that the workflows rely on: updates (a conversation turn is one), and
  # search attributes visible to the next request right after they are registered.
  cat >"$STATE_DIR/dynamicconfig.yaml" <<'EOF'
frontend.enableUpdateWorkflowExecution:
  - value: true
frontend.enableUpdateWorkflowExecutionAsyncAccepted:
  - value: true
system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
EOF
}

# Its statement-by-statement output goes to schema.log; on failure, the end of it is shown.
sql_tool() {
  local db="$1" log="$STATE_DIR/schema.log"
  shift
  if ! "$SERVER_DIR/bin/temporal-sql-tool" --plugin postgres12 --ep 127.0.0.1 -p "$PG_PORT" -u postgres --db "$db" "$@" >>"$log" 2>&1; then
    svc_log_tail "$log"
    svc_die "temporal-sql-tool $1 on $db failed; see $log"
  fi
}

# Creates the database when missing, gives it the schema's version table when it has none, then moves it
# to the newest version shipped with the server: safe on every start, and how an upgrade applies.
ensure_schema() {
  local db="$1" versioned="$2" exists
  exists="$(psql_admin -d postgres -tA -v db="$db" <<<"SELECT 1 FROM pg_database WHERE datname = :'db'")"
  if [[ "$exists" != 1 ]]; then
    svc_log "creating database $db"
    sql_tool "$db" create-database
  fi
  if [[ "$(psql_admin -d "$db" -tA <<<"SELECT to_regclass('schema_version') IS NOT NULL")" != t ]]; then
    svc_log "setting up the schema of $db"
    sql_tool "$db" setup-schema -v 0.0
  fi
  svc_log "bringing the schema of $db to the newest version shipped with the server"
  sql_tool "$db" update-schema -d "$versioned"
}

# --- processes ----------------------------------------------------------------------------------

launch() {
  local role="$1" log="$STATE_DIR/$1.log" services=()
  if [[ "$role" == frontend ]]; then
    services=(--service frontend)
  else
    services=(--service history --service matching --service worker)
  fi
  [[ -f "$log" ]] && mv -f "$log" "$log.1"
  # setsid: its own process group, out of reach of a Ctrl-C at the calling terminal (the caller stops
  # it in order); 8>&-: the service lock stays with this script.
  setsid "$SERVER_DIR/bin/temporal-server" --config-file "$STATE_DIR/config/topology.yaml" --allow-no-auth \
    start "${services[@]}" >>"$log" 2>&1 </dev/null 8>&- &
  local pid=$!
  echo "$pid" >"$STATE_DIR/$role.pid"
  svc_wait_exec "$pid" || true # when it died at once, wait_ready reports it with its log
  svc_log "started the $role (pid $pid, log $log)"
}

# Each process writes the cluster's record on its first start against an empty database; two doing it at
# once make one fail on the duplicate key and exit. So the frontend starts once the core has written it.
wait_cluster_metadata() {
  local deadline=$((SECONDS + START_TIMEOUT))
  until [[ "$(psql_admin -d "$DB" -tA <<<"SELECT count(*) FROM cluster_metadata_info" 2>/dev/null)" =~ ^[1-9] ]]; do
    if ! role_pid core >/dev/null; then
      svc_log_tail "$STATE_DIR/core.log"
      svc_die "the Temporal core exited during startup; see $STATE_DIR/core.log"
    fi
    ((SECONDS < deadline)) || svc_die "the Temporal core wrote no cluster record within ${START_TIMEOUT}s; see $STATE_DIR/core.log"
    sleep 0.2
  done
}

missing_search_attributes() {
  local listed name
  listed="$(cli operator search-attribute list --namespace "$NAMESPACE" 2>/dev/null)" || return 1
  for name in "${SEARCH_ATTRIBUTES[@]}"; do
    grep -qw -- "$name" <<<"$listed" || printf '%s\n' "$name"
  done
}

# Ready: the frontend serves, the namespace exists (created here, the server makes none), and the
# search attributes are registered.
wait_ready() {
  local deadline=$((SECONDS + START_TIMEOUT)) role pid missing name
  svc_log "waiting for $ADDRESS (up to ${START_TIMEOUT}s)"
  while :; do
    for role in frontend core; do
      if ! pid="$(role_pid "$role")"; then
        svc_log_tail "$STATE_DIR/$role.log"
        svc_die "the Temporal $role exited during startup; see $STATE_DIR/$role.log"
      fi
    done
    if cli operator cluster health 2>/dev/null | grep -q SERVING; then
      if ! cli operator namespace describe --namespace "$NAMESPACE" >/dev/null 2>&1; then
        cli operator namespace create --namespace "$NAMESPACE" --retention 72h >/dev/null 2>&1 || true
      elif missing="$(missing_search_attributes)"; then
        [[ -z "$missing" ]] && return 0
        for name in $missing; do
          svc_log "registering search attribute $name (Keyword)"
          cli operator search-attribute create --namespace "$NAMESPACE" --name "$name" --type Keyword >/dev/null 2>&1 || true
        done
      fi
    fi
    if ((SECONDS >= deadline)); then
      svc_log_tail "$STATE_DIR/frontend.log"
      svc_log_tail "$STATE_DIR/core.log"
      svc_die "Temporal at $ADDRESS not ready after ${START_TIMEOUT}s (health, namespace '$NAMESPACE' or search attributes)"
    fi
    sleep 0.5
  done
}

# Temporal UI, pointed at the frontend. Optional: when its server cannot be built, the topology runs without it.
launch_ui() {
  local bin log="$STATE_DIR/ui.log"
  if ! bin="$(bash "$SCRIPTS_DIR/temporal-server.sh" ui)"; then
    svc_log "Temporal UI is not available (see above); going on without it"
    return 0
  fi
  if svc_port_in_use "$UI_PORT"; then
    svc_log "127.0.0.1:$UI_PORT is taken; going on without Temporal UI"
    return 0
  fi
  mkdir -p "$STATE_DIR/ui-config"
  cat >"$STATE_DIR/ui-config/topology.yaml" <<EOF
temporalGrpcAddress: 127.0.0.1:$PORT
host: 127.0.0.1
port: $UI_PORT
enableUi: true
defaultNamespace: default
auth:
  enabled: false
EOF
  [[ -f "$log" ]] && mv -f "$log" "$log.1"
  setsid "$bin" --root "$STATE_DIR" --config ui-config --env topology start >>"$log" 2>&1 </dev/null 8>&- &
  local pid=$!
  echo "$pid" >"$STATE_DIR/ui.pid"
  svc_wait_exec "$pid" || true
  svc_log "Temporal UI on http://127.0.0.1:$UI_PORT (pid $pid, log $log)"
}

svc_start() {
  local role port
  SERVER_DIR="$(bash "$SCRIPTS_DIR/temporal-server.sh")"
  CLI="$(bash "$SCRIPTS_DIR/temporal-cli.sh")"
  mkdir -p "$STATE_DIR"
  write_config
  if ! role_pid core >/dev/null; then
    for port in "$PORT" $(seq "$INTERNAL" $((INTERNAL + 6))); do
      svc_port_in_use "$port" && svc_die "127.0.0.1:$port is taken by another process (Temporal needs $PORT and $INTERNAL..$((INTERNAL + 6))); choose another SVC_TEMPORAL_PORT or SVC_TEMPORAL_INTERNAL_PORT"
    done
    ensure_schema "$DB" "$SERVER_DIR/schema/postgresql/v12/temporal/versioned"
    ensure_schema "$VIS_DB" "$SERVER_DIR/schema/postgresql/v12/visibility/versioned"
  fi
  for role in core frontend; do
    if pid="$(role_pid "$role")"; then
      svc_log "the $role already runs (pid $pid), reusing it"
    else
      launch "$role"
    fi
    [[ "$role" == core ]] && wait_cluster_metadata
  done
  wait_ready
  if [[ "${SVC_TEMPORAL_UI:-1}" != 0 ]] && ! role_pid ui >/dev/null; then launch_ui; fi
  svc_log "ready: $ADDRESS (namespace $NAMESPACE; PostgreSQL 127.0.0.1:$PG_PORT/$DB, 4 history shards)"
}

stop_role() {
  local pid
  if pid="$(role_pid "$1")"; then
    svc_stop_group "$pid" "$STOP_TIMEOUT" "the Temporal $1"
  fi
  rm -f "$STATE_DIR/$1.pid"
}

# The frontend first, so that no client request lands on a half-stopped server.
svc_stop_server() {
  stop_role ui
  stop_role frontend
  stop_role core
}

if [[ "${1:-}" == stop-frontend ]]; then
  mkdir -p "$STATE_DIR"
  exec 8>"$DATA_DIR/.temporal-pg.lock"
  flock -w 120 8 || svc_die "timed out waiting for the lock $DATA_DIR/.temporal-pg.lock"
  svc_log "stopping the frontend"
  stop_role frontend
  exit 0
fi
svc_service_main temporal-pg "$DATA_DIR" "$@"
