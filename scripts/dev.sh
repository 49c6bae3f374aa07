#!/usr/bin/env bash
# `npm run dev`: PostgreSQL + Temporal + migrations + the API and the worker, in one terminal.
# Ctrl-C stops the API, the worker, and the services this invocation started. If the API or the
# worker exits on its own, everything is stopped and the script exits non-zero.
#
# Environment (defaults):
#   SVC_DATA_DIR=.data/dev  SVC_PG_PORT=54320  SVC_PG_DB=svc
#   SVC_TEMPORAL_PORT=7233  SVC_TEMPORAL_UI_PORT=8233  PORT=3000 (the API)
#   SVC_APP_STOP_TIMEOUT=10 seconds the API/worker get to shut down before SIGKILL
#   SVC_SKIP_INSTALL=1 to never install dependencies
#   SVC_CONSOLE_WATCH=1 rebuild the console (console/) on every change instead of once at start
# plus what scripts/postgres.sh and scripts/temporal.sh read.
# shellcheck disable=SC2317 # cleanup functions are called from traps
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${SVC_DATA_DIR:=.data/dev}"
: "${SVC_PG_PORT:=54320}"
: "${SVC_PG_DB:=svc}"
: "${SVC_TEMPORAL_PORT:=7233}"
: "${SVC_TEMPORAL_UI_PORT:=8233}"
: "${SVC_MARIADB_PORT:=33060}"
: "${PORT:=3000}"
: "${SVC_APP_STOP_TIMEOUT:=10}"
export SVC_DATA_DIR SVC_PG_PORT SVC_PG_DB SVC_TEMPORAL_PORT SVC_TEMPORAL_UI_PORT PORT

# shellcheck source=services.sh
source scripts/services.sh
SVC_LOG_TAG=dev

APP_NAMES=()
APP_PIDS=()

# Prefix every line of an app's output with its name. Ignores INT/TERM (inherited by sed) so that
# a Ctrl-C does not cut off the app's own shutdown messages; it ends when the app closes the pipe.
prefix_output() {
  trap '' INT TERM
  exec sed -u "s/^/[$1] /"
}

# Start an app in its own session (setsid), so that it, npx, tsx and their children form one
# process group that we can signal as a whole, and so that a Ctrl-C reaches only this script,
# which then stops everything in order.
start_app() {
  local name="$1"
  shift
  setsid "$@" > >(prefix_output "$name") 2>&1 </dev/null &
  APP_NAMES+=("$name")
  APP_PIDS+=($!)
  svc_log "started $name (pid $!): $*"
}

# Each app gets SVC_APP_STOP_TIMEOUT seconds, all at once, before it is killed.
stop_apps() {
  local i pids=()
  ((${#APP_PIDS[@]} > 0)) || return 0
  for i in "${!APP_PIDS[@]}"; do
    if svc_group_alive "${APP_PIDS[$i]}"; then
      svc_log "stopping ${APP_NAMES[$i]}"
      svc_stop_group "${APP_PIDS[$i]}" "$SVC_APP_STOP_TIMEOUT" "${APP_NAMES[$i]}" &
      pids+=($!)
    fi
  done
  ((${#pids[@]} == 0)) || wait "${pids[@]}" || true
  APP_PIDS=()
  APP_NAMES=()
}

# The data sources' secrets key (platform/secrets.ts): SVC_SECRETS_KEY when set, else one generated
# once into the data dir, so that stored passwords stay readable from one `npm run dev` to the next.
svc_secrets_key() {
  local file="$SVC_DATA_DIR/secrets.key"
  if [[ -z "${SVC_SECRETS_KEY:-}" ]]; then
    if [[ ! -s "$file" ]]; then
      (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >"$file")
      svc_log "generated a secrets key into $file"
    fi
    SVC_SECRETS_KEY="$(cat "$file")"
    export SVC_SECRETS_KEY
  fi
}

cleanup() {
  stop_apps
  svc_services_down
}

# Poll /healthz until the API answers, so that the URLs are printed when they work. Gives up
# quietly after a minute (the API may simply be slow); stops early if an app died.
wait_for_api() {
  local deadline=$((SECONDS + 60)) pid
  command -v curl >/dev/null 2>&1 || return 0
  while ((SECONDS < deadline)); do
    curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/healthz" 2>/dev/null && return 0
    for pid in "${APP_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done
    sleep 0.5
  done
  svc_log "the API did not answer /healthz within 60s; still waiting for it in the background"
}

print_banner() {
  cat >&2 <<EOF

  API          http://127.0.0.1:$PORT
  health       http://127.0.0.1:$PORT/healthz
  readiness    http://127.0.0.1:$PORT/readyz
  console      http://127.0.0.1:$PORT/console/
  Temporal UI  http://127.0.0.1:$SVC_TEMPORAL_UI_PORT
  Temporal     $TEMPORAL_ADDRESS (namespace $TEMPORAL_NAMESPACE)
  PostgreSQL   $DATABASE_URL

  Ctrl-C to stop.

EOF
}

main() {
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  svc_install_deps
  svc_console_install
  svc_console_build
  svc_services_up
  svc_migrate
  svc_secrets_key

  if [[ "${SVC_CONSOLE_WATCH:-0}" == 1 ]]; then
    start_app console bash -c 'cd console && exec npx --no-install vite build --watch --logLevel warn'
  fi
  # The console links each run to its workflow in this Temporal UI (SVC_TEMPORAL_UI_URL, docs/console.md).
  export SVC_TEMPORAL_UI_URL="${SVC_TEMPORAL_UI_URL:-http://127.0.0.1:$SVC_TEMPORAL_UI_PORT}"
  start_app api npx tsx api/main.ts
  start_app worker npx tsx worker/main.ts

  wait_for_api && print_banner

  # Whichever app exits first ends the session: a dev setup with half the system down only
  # produces confusing errors.
  local exited rc=0
  wait -n -p exited "${APP_PIDS[@]}" || rc=$?
  local i name=app
  for i in "${!APP_PIDS[@]}"; do [[ "${APP_PIDS[$i]}" == "${exited:-}" ]] && name="${APP_NAMES[$i]}"; done
  svc_log "$name exited (status $rc); stopping everything"
  exit $((rc == 0 ? 1 : rc))
}

main "$@"
