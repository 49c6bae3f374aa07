#!/usr/bin/env bash
# `npm run topology`: the production shape on one machine (docs/operations.md), every process on 127.0.0.1:
#   PostgreSQL                  scripts/postgres.sh (the service's database and Temporal's two)
#   S3-compatible storage       moto (scripts/moto.sh), one bucket; SVC_STORAGE_URL=s3://…
#   Temporal                    the real temporal-server on PostgreSQL (scripts/temporal-pg.sh): a
#                               frontend process and a history/matching/worker process, 4 history shards
#   two APIs and two workers    scripts/topology/apps.ts, sharing all of the above
#   one entry point             scripts/topology/entry.ts, round-robin over both APIs
# It prints the URLs; Ctrl-C stops everything this invocation started. Process state and logs are under
# $SVC_DATA_DIR (logs/ for the APIs and workers, temporal-server/ for Temporal).
#
#   npm run topology
#   bash scripts/topology.sh --fresh --run CMD ARGS…   wipe the state, bring the services up, run CMD
#                                                     instead of the APIs and workers (the topology drill
#                                                     starts those itself), stop everything, exit with CMD's code
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/topology   SVC_PG_PORT=54330   SVC_PG_DB=svc
#   SVC_TEMPORAL_PORT=7273: the frontend; SVC_TEMPORAL_INTERNAL_PORT=PORT+1: the first of Temporal's seven
#                           internal ports; SVC_TEMPORAL_UI_PORT=PORT+1000 (SVC_TEMPORAL_UI=0: no UI)
#   SVC_TOPOLOGY_PORT=4400: the entry point; SVC_TOPOLOGY_API_PORTS=4401,4402: the two APIs;
#                           SVC_TOPOLOGY_MOTO_PORT=4403: moto
#   SVC_SECRETS_KEY: else one generated once into the data dir (a --fresh run makes a throwaway one)
#   SVC_SKIP_INSTALL=1: never install or build (the Temporal server must be built already)
# shellcheck disable=SC2317 # cleanup functions are called from traps
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${SVC_DATA_DIR:=.data/topology}"
: "${SVC_PG_PORT:=54330}"
: "${SVC_PG_DB:=svc}"
: "${SVC_TEMPORAL_PORT:=7273}"
: "${SVC_TOPOLOGY_PORT:=4400}"
: "${SVC_TEMPORAL_UI_PORT:=$((SVC_TEMPORAL_PORT + 1000))}"
: "${SVC_TOPOLOGY_API_PORTS:=$((SVC_TOPOLOGY_PORT + 1)),$((SVC_TOPOLOGY_PORT + 2))}"
: "${SVC_TOPOLOGY_MOTO_PORT:=$((SVC_TOPOLOGY_PORT + 3))}"

FRESH=0
RUN=()
while (($#)); do
  case "$1" in
    --fresh) FRESH=1 ;;
    --run)
      shift
      RUN=("$@")
      break
      ;;
    *) echo "usage: $0 [--fresh] [--run CMD ARGS…]" >&2 && exit 2 ;;
  esac
  shift
done

# shellcheck source=services.sh
source scripts/services.sh
SVC_LOG_TAG=topology
SVC_DATA_DIR="$(svc_abspath "$SVC_DATA_DIR")"
export SVC_DATA_DIR SVC_PG_PORT SVC_PG_DB SVC_TEMPORAL_PORT SVC_TEMPORAL_UI_PORT SVC_TOPOLOGY_PORT SVC_TOPOLOGY_API_PORTS

[[ "$SVC_TOPOLOGY_PORT" =~ ^[0-9]+$ && "$SVC_TOPOLOGY_MOTO_PORT" =~ ^[0-9]+$ ]] ||
  svc_die "SVC_TOPOLOGY_PORT and SVC_TOPOLOGY_MOTO_PORT must be numbers"
[[ "$SVC_TOPOLOGY_API_PORTS" =~ ^[0-9]+,[0-9]+$ ]] || svc_die "SVC_TOPOLOGY_API_PORTS must be two ports, as in 4401,4402"
MOTO_PORT="$SVC_TOPOLOGY_MOTO_PORT"
MOTO_PID_FILE="$SVC_DATA_DIR/moto.pid"
BUCKET=svc-topology
STARTED=()

moto_pid() {
  local pid
  [[ -f "$MOTO_PID_FILE" ]] && pid="$(cat "$MOTO_PID_FILE")" && svc_pid_alive "$pid" && printf '%s\n' "$pid"
}

# moto keeps its objects in memory: a restart of moto forgets every file (real S3 would not).
moto_start() {
  local server deadline
  if moto_pid >/dev/null; then
    svc_log "moto already runs on 127.0.0.1:$MOTO_PORT, reusing it"
    return 0
  fi
  svc_port_in_use "$MOTO_PORT" && svc_die "127.0.0.1:$MOTO_PORT (for moto) is taken by another process; choose another SVC_TOPOLOGY_MOTO_PORT"
  server="$(bash scripts/moto.sh)"
  STARTED+=(moto)
  # through the venv's own python: the script's #! line names the path the venv was made at, which a venv
  # shared between checkouts (a symlinked .tools/) may no longer have
  setsid "$(dirname "$server")/python" "$server" -H 127.0.0.1 -p "$MOTO_PORT" >>"$SVC_DATA_DIR/moto.log" 2>&1 </dev/null &
  echo $! >"$MOTO_PID_FILE"
  svc_wait_exec $! || true
  deadline=$((SECONDS + 30))
  until curl -sf -o /dev/null "http://127.0.0.1:$MOTO_PORT/moto-api/"; do
    moto_pid >/dev/null || { svc_log_tail "$SVC_DATA_DIR/moto.log"; svc_die "moto exited during startup"; }
    ((SECONDS < deadline)) || svc_die "moto did not answer on 127.0.0.1:$MOTO_PORT within 30 s"
    sleep 0.2
  done
  svc_log "moto on 127.0.0.1:$MOTO_PORT"
}

moto_stop() {
  local pid
  if pid="$(moto_pid)"; then svc_stop_group "$pid" 5 moto; fi
  rm -f "$MOTO_PID_FILE"
}

# The APIs, workers and entry point (or the --run command) run in the background, so that a signal to this
# script is handled at once (bash runs a trap only once its foreground command has ended) and handed on.
CHILD=""
on_signal() {
  SIGNALLED="$1"
  [[ -n "$CHILD" ]] && kill -TERM "$CHILD" 2>/dev/null
  return 0
}

# Runs "$@" in the background and waits for it, through signals; sets rc to its exit code.
run_child() {
  "$@" &
  CHILD=$!
  while :; do
    rc=0
    wait "$CHILD" || rc=$?
    # wait returns early (above 128) when a trapped signal arrives; the child is still stopping then
    svc_pid_alive "$CHILD" || break
  done
  CHILD=""
}

# In reverse start order: Temporal before the PostgreSQL it writes to.
cleanup() {
  local i name
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
    name="${STARTED[$i]}"
    case "$name" in
      moto) moto_stop ;;
      *) bash "scripts/$name.sh" stop || true ;;
    esac
  done
  STARTED=()
}
SIGNALLED=""
trap cleanup EXIT
# Until the child runs, a signal stops the start-up.
stop_now() {
  on_signal "$1"
  exit "$1"
}
trap 'stop_now 130' INT
trap 'stop_now 143' TERM

svc_install_deps

if ((FRESH)); then
  bash scripts/temporal-pg.sh stop >/dev/null 2>&1 || true
  bash scripts/postgres.sh stop >/dev/null 2>&1 || true
  moto_stop
  rm -rf "$SVC_DATA_DIR"
  svc_throwaway_secrets_key
fi
mkdir -p "$SVC_DATA_DIR"

for port in "$SVC_TOPOLOGY_PORT" ${SVC_TOPOLOGY_API_PORTS/,/ }; do
  svc_port_in_use "$port" &&
    svc_die "127.0.0.1:$port (for the entry point or an API) is taken by another process; choose other SVC_TOPOLOGY_PORT / SVC_TOPOLOGY_API_PORTS"
done

if [[ -z "${SVC_SECRETS_KEY:-}" ]]; then
  if [[ ! -s "$SVC_DATA_DIR/secrets.key" ]]; then
    (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >"$SVC_DATA_DIR/secrets.key")
  fi
  SVC_SECRETS_KEY="$(cat "$SVC_DATA_DIR/secrets.key")"
fi
export SVC_SECRETS_KEY

# Resolved first: a missing server binary is the likeliest failure, and it should say so before
# anything else starts.
bash scripts/temporal-server.sh >/dev/null

bash scripts/postgres.sh status >/dev/null || STARTED+=(postgres)
bash scripts/postgres.sh start
moto_start
curl -sf -o /dev/null -X PUT "http://127.0.0.1:$MOTO_PORT/$BUCKET" || svc_die "could not make the bucket $BUCKET in moto"
bash scripts/temporal-pg.sh status >/dev/null || STARTED+=(temporal-pg)
bash scripts/temporal-pg.sh start
if temporal_status="$(bash scripts/temporal-pg.sh status)" && [[ "$temporal_status" == *"UI http://"* ]]; then
  # the console links a run to its workflow in Temporal UI
  export SVC_TEMPORAL_UI_URL="http://127.0.0.1:$SVC_TEMPORAL_UI_PORT"
fi

export DATABASE_URL="postgres://postgres@127.0.0.1:$SVC_PG_PORT/$SVC_PG_DB"
export TEMPORAL_ADDRESS="127.0.0.1:$SVC_TEMPORAL_PORT"
export TEMPORAL_NAMESPACE=default
export SVC_STORAGE_URL="s3://$BUCKET/files"
export SVC_S3_ENDPOINT="http://127.0.0.1:$MOTO_PORT"
export SVC_S3_REGION=us-east-1
export SVC_S3_FORCE_PATH_STYLE=1
# moto takes any credentials; real S3 takes the service's own identity (docs/api/files.md)
export AWS_ACCESS_KEY_ID=topology
export AWS_SECRET_ACCESS_KEY=topology-secret
export SVC_PUBLIC_URL="http://127.0.0.1:$SVC_TOPOLOGY_PORT"
svc_migrate >&2

rc=0
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
if ((${#RUN[@]})); then
  run_child "${RUN[@]}"
else
  run_child node_modules/.bin/tsx scripts/topology/main.ts
fi
[[ -n "$SIGNALLED" ]] && exit "$SIGNALLED"
exit "$rc"
