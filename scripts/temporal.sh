#!/usr/bin/env bash
# A local Temporal server (`temporal server start-dev`, SQLite-backed) kept under $SVC_DATA_DIR.
#
# Usage: scripts/temporal.sh start|stop|status
#
# Environment:
#   SVC_DATA_DIR                where its files live (default: .data/dev, relative to the current dir)
#   SVC_TEMPORAL_PORT           gRPC frontend port on 127.0.0.1 (default: 7233)
#   SVC_TEMPORAL_UI_PORT        Web UI port on 127.0.0.1 (default: gRPC port + 1000)
#   SVC_TEMPORAL_START_TIMEOUT  seconds to wait for readiness (default: 90)
#   SVC_TEMPORAL_STOP_TIMEOUT   seconds between SIGTERM and SIGKILL on stop (default: 10)
#   TEMPORAL_CLI                the temporal binary to use (default: see scripts/temporal-cli.sh)
#   SVC_CODEC_TOKEN             when set, the UI is pointed at the API's codec endpoint (docs/operations.md)
#   SVC_CODEC_ENDPOINT          that endpoint (default: http://127.0.0.1:$PORT/codec, PORT the API's)
#
# Files in $SVC_DATA_DIR: temporal.db (+ -wal/-shm), temporal.log, temporal.pid.
set -euo pipefail

SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/common.sh
source "$SCRIPTS_DIR/lib/common.sh"
SVC_LOG_TAG=temporal

DATA_DIR="$(svc_abspath "${SVC_DATA_DIR:-.data/dev}")"
# the API's port (PORT) before this script reuses the name for Temporal's
API_PORT="${PORT:-3000}"
PORT="${SVC_TEMPORAL_PORT:-7233}"
UI_PORT="${SVC_TEMPORAL_UI_PORT:-$((PORT + 1000))}"
START_TIMEOUT="${SVC_TEMPORAL_START_TIMEOUT:-90}"
STOP_TIMEOUT="${SVC_TEMPORAL_STOP_TIMEOUT:-10}"

ADDRESS="127.0.0.1:$PORT"
NAMESPACE=default
DB_FILE="$DATA_DIR/temporal.db"
LOG_FILE="$DATA_DIR/temporal.log"
PID_FILE="$DATA_DIR/temporal.pid"

# The custom search attributes the workflows set; all of type Keyword.
SEARCH_ATTRIBUTES=(SvcWorkspaceId SvcAgentId SvcRunStatus)

[[ "$PORT" =~ ^[0-9]+$ && "$UI_PORT" =~ ^[0-9]+$ ]] || svc_die "SVC_TEMPORAL_PORT and SVC_TEMPORAL_UI_PORT must be numbers"

# --- state --------------------------------------------------------------------------------------

# The server runs when the pid file names a live `temporal server start-dev` using our database
# file (a stale pid file may name an unrelated process after a reboot).
svc_running_pid() {
  local pid
  [[ -f "$PID_FILE" ]] || return 1
  pid="$(cat "$PID_FILE")"
  svc_pid_alive "$pid" || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qx -- "start-dev" || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qx -- "$DB_FILE" || return 1
  printf '%s\n' "$pid"
}

# The value that follows flag $2 on the command line of process $1.
cmdline_flag() {
  tr '\0' '\n' <"/proc/$1/cmdline" | grep -x -A1 -- "$2" | tail -n 1
}

# Runs a CLI command against our server. `timeout`: a wedged server must not hang the script;
# --address/--namespace given explicitly so that TEMPORAL_* variables in the environment (our own
# scripts export TEMPORAL_ADDRESS) or a user's CLI config file cannot redirect it.
cli() {
  timeout 15 "$CLI" "$@" --address "$ADDRESS"
}

# Prints the search attributes from $SEARCH_ATTRIBUTES that the namespace lacks.
missing_search_attributes() {
  local listed name
  listed="$(cli operator search-attribute list --namespace "$NAMESPACE" 2>/dev/null)" || return 1
  for name in "${SEARCH_ATTRIBUTES[@]}"; do
    grep -qw -- "$name" <<<"$listed" || printf '%s\n' "$name"
  done
}

# Ready means: the frontend is SERVING, the namespace exists, and our search attributes are
# registered (start-dev registers them when it creates the namespace; a database file made by
# an older version of this script may lack them, so missing ones are added here).
wait_ready() {
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT)) missing
  svc_log "waiting for $ADDRESS (up to ${START_TIMEOUT}s)"
  while :; do
    if ! svc_pid_alive "$pid"; then
      rm -f "$PID_FILE"
      svc_log_tail "$LOG_FILE"
      svc_die "the Temporal server exited during startup; see $LOG_FILE"
    fi
    if cli operator cluster health 2>/dev/null | grep -q SERVING &&
      cli operator namespace describe --namespace "$NAMESPACE" >/dev/null 2>&1 &&
      missing="$(missing_search_attributes)"; then
      if [[ -z "$missing" ]]; then
        return 0
      fi
      # One per call: given several --name flags, this CLI version registers only the first.
      local name
      for name in $missing; do
        svc_log "registering missing search attribute $name (Keyword)"
        cli operator search-attribute create --namespace "$NAMESPACE" --name "$name" --type Keyword >/dev/null || true
      done
    fi
    if ((SECONDS >= deadline)); then
      svc_log_tail "$LOG_FILE"
      svc_die "Temporal at $ADDRESS not ready after ${START_TIMEOUT}s (health, namespace '$NAMESPACE' or search attributes); see $LOG_FILE"
    fi
    sleep 0.5
  done
}

# --- commands -----------------------------------------------------------------------------------

launch() {
  local sa_args=() name
  for name in "${SEARCH_ATTRIBUTES[@]}"; do sa_args+=(--search-attribute "$name=Keyword"); done
  # Payloads are encrypted (platform/payloadCodec.ts): with an operator token the UI decodes them through the API.
  local codec_args=()
  if [[ -n "${SVC_CODEC_TOKEN:-}" ]]; then
    codec_args=(--ui-codec-endpoint "${SVC_CODEC_ENDPOINT:-http://127.0.0.1:$API_PORT/codec}")
  fi

  # Log to a fresh file each start (the previous one kept as .1) so the tail shown on failure
  # belongs to this start.
  [[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$LOG_FILE.1"

  svc_log "starting on $ADDRESS, UI http://127.0.0.1:$UI_PORT (db $DB_FILE, log $LOG_FILE)"
  # SQLite pragmas (any SQLite pragma is passed through): WAL lets readers and the writer work
  # concurrently; synchronous=normal is safe with WAL and skips an fsync per commit; busy_timeout
  # makes a briefly locked database wait instead of failing.
  # setsid: own session, so that a Ctrl-C at a foreground script does not hit the server
  # directly (the script stops it in its own order) and the whole group can be signalled.
  # 8>&-: do not pass our lock on to the server, which would keep it for its whole life.
  setsid "$CLI" server start-dev \
    --ip 127.0.0.1 \
    --port "$PORT" \
    --ui-port "$UI_PORT" \
    --db-filename "$DB_FILE" \
    "${sa_args[@]}" \
    "${codec_args[@]}" \
    --sqlite-pragma journal_mode=wal \
    --sqlite-pragma synchronous=normal \
    --sqlite-pragma busy_timeout=10000 \
    --log-level warn \
    >>"$LOG_FILE" 2>&1 </dev/null 8>&- &
  echo $! >"$PID_FILE"
  svc_wait_exec $! || true # when it died at once, wait_ready reports it with its log
}

svc_start() {
  local pid port
  # Resolved (and if need be built) only to start: stopping needs no binary.
  CLI="$(bash "$SCRIPTS_DIR/temporal-cli.sh")"
  if pid="$(svc_running_pid)"; then
    port="$(cmdline_flag "$pid" --port)"
    if [[ "$port" != "$PORT" ]]; then
      svc_die "the Temporal server of $DATA_DIR already runs on port $port, not $PORT: stop it first (scripts/temporal.sh stop) or set SVC_TEMPORAL_PORT=$port"
    fi
    svc_log "already running (pid $pid) on $ADDRESS, reusing it"
    UI_PORT="$(cmdline_flag "$pid" --ui-port)"
  else
    rm -f "$PID_FILE"
    for port in "$PORT" "$UI_PORT"; do
      if svc_port_in_use "$port"; then
        svc_die "127.0.0.1:$port is taken by another process (not the Temporal server of $DATA_DIR); stop it or choose other SVC_TEMPORAL_PORT/SVC_TEMPORAL_UI_PORT. Listener: $(ss -ltnpH "sport = :$port" 2>/dev/null | head -n 1 || true)"
      fi
    done
    launch
    pid="$(cat "$PID_FILE")"
  fi
  wait_ready "$pid"
  svc_log "ready: $ADDRESS (namespace $NAMESPACE), UI http://127.0.0.1:$UI_PORT"
}

# The server leads its own process group (setsid), so the whole group is signalled.
svc_stop_server() {
  svc_stop_group "$1" "$STOP_TIMEOUT" "the Temporal server"
  rm -f "$PID_FILE"
}

svc_running_summary() {
  echo "running (pid $1) on 127.0.0.1:$(cmdline_flag "$1" --port), UI http://127.0.0.1:$(cmdline_flag "$1" --ui-port), data $DATA_DIR"
}

svc_service_main temporal "$DATA_DIR" "$@"
