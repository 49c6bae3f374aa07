# shellcheck shell=bash
# Shared setup for scripts/dev.sh and scripts/test.sh. Source it after setting the SVC_* defaults.
#
# Functions:
#   svc_install_deps    npm install when node_modules is missing or older than package-lock.json
#   svc_services_up     start PostgreSQL, Temporal and MariaDB (or reuse running ones), export the
#                       DATABASE_URL / TEMPORAL_* variables the application reads and SVC_MARIADB_PORT
#                       (or SVC_MARIADB_ERROR, saying why MariaDB is missing: only its tests fail then)
#   svc_services_down   stop the services that THIS invocation started, and only those
#   svc_migrate         apply the database migrations (db/migrate.ts)
#   svc_own_services T  for test/bench/drill: log tag T, exports, stop-on-exit traps
#   svc_console_*       the console's install and build (scripts/lib/console.sh)
#
# Environment (besides what scripts/postgres.sh and scripts/temporal.sh read):
#   SVC_SKIP_INSTALL=1  never install (e.g. offline, or node_modules managed by hand)
#   SVC_AUTO_PORTS=1    if a port is taken by something else, move to the next free one
#                       instead of failing (test.sh turns this on; its ports matter to nobody)
#   SVC_TEMPORAL_SERVER=dev  dev: Temporal's dev server on SQLite (scripts/temporal.sh); pg: the real server
#                       on this PostgreSQL cluster (scripts/temporal-pg.sh, the production shape), started once
#                       PostgreSQL is up (the bench measures a run's cost on it: bench/README.md)

SVC_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/common.sh
source "$SVC_SCRIPTS_DIR/lib/common.sh"
# shellcheck source=lib/console.sh
source "$SVC_SCRIPTS_DIR/lib/console.sh"

# Everything below (npm, jest, tsc, tsx, the API, the worker, the console build) runs on a supported
# Node: the machine's own when it is recent enough, else the pinned release scripts/node.sh installs.
svc_use_node() {
  local bin
  bin="$(bash "$SVC_SCRIPTS_DIR/node.sh")" || svc_die "no supported Node.js (see scripts/node.sh)"
  case ":$PATH:" in
    *":$bin:"*) ;;
    *) export PATH="$bin:$PATH" ;;
  esac
  if [[ -z "${SVC_NODE_ANNOUNCED:-}" ]]; then
    export SVC_NODE_ANNOUNCED=1
    svc_log "Node $("$bin/node" --version) from $bin"
  fi
}
svc_use_node

# A throwaway key for the stored secrets and Temporal's payloads (platform/secrets.ts), unless the caller
# set one: for test, bench and drill runs, whose data is thrown away (dev keeps one in its data dir).
svc_throwaway_secrets_key() {
  if [[ -z "${SVC_SECRETS_KEY:-}" ]]; then
    SVC_SECRETS_KEY="$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')"
    export SVC_SECRETS_KEY
  fi
}

# Services started by this invocation, in start order; cleanup stops exactly these, so that a
# PostgreSQL or Temporal someone else started (another terminal, another script) keeps running.
SVC_STARTED_SERVICES=()

# The Temporal service script: the dev server, or the real server on PostgreSQL.
case "${SVC_TEMPORAL_SERVER:-dev}" in
  dev) SVC_TEMPORAL_SCRIPT=temporal ;;
  pg) SVC_TEMPORAL_SCRIPT=temporal-pg ;;
  *) svc_die "SVC_TEMPORAL_SERVER is dev or pg, not '${SVC_TEMPORAL_SERVER}'" ;;
esac

svc_install_deps() {
  if [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]]; then
    return 0
  fi
  # npm writes node_modules/.package-lock.json on every install, so it is older than
  # package-lock.json exactly when the lock file changed since (e.g. after a pull).
  if [[ ! -d "$SVC_ROOT/node_modules" || "$SVC_ROOT/package-lock.json" -nt "$SVC_ROOT/node_modules/.package-lock.json" ]]; then
    # `npm install`, not `npm ci`: the registry mirror lacks some other platforms' optional binaries
    # (@swc/core-darwin-*, …), so the lock file cannot list them and `npm ci` refuses it as out of
    # sync. `npm install` still installs exactly the locked versions.
    svc_log "installing dependencies (npm install from package-lock.json)"
    (cd "$SVC_ROOT" && npm install --no-audit --no-fund)
  fi
}

# "running ... on 127.0.0.1:PORT" (from `status`) -> PORT; "UI http://127.0.0.1:PORT" with $2=ui.
svc__status_port() {
  if [[ "${2:-}" == ui ]]; then
    sed -n 's|.*UI http://127\.0\.0\.1:\([0-9]*\).*|\1|p' <<<"$1"
  else
    sed -n 's|.* on 127\.0\.0\.1:\([0-9]*\).*|\1|p' <<<"$1"
  fi
}

# With SVC_AUTO_PORTS=1: reuse a service of this data dir on whatever port it runs, and move
# away from ports that something else holds (a leftover from another checkout, say).
svc__pick_ports() {
  local st port ui_offset
  if st="$(bash "$SVC_SCRIPTS_DIR/postgres.sh" status)"; then
    SVC_PG_PORT="$(svc__status_port "$st")"
  elif svc_port_in_use "$SVC_PG_PORT"; then
    port="$(svc_find_free_port "$SVC_PG_PORT")" || svc_die "no free port near $SVC_PG_PORT for PostgreSQL"
    svc_log "port $SVC_PG_PORT is taken by another process; PostgreSQL will use $port"
    SVC_PG_PORT="$port"
  fi

  ui_offset=$((SVC_TEMPORAL_UI_PORT - SVC_TEMPORAL_PORT))
  if st="$(bash "$SVC_SCRIPTS_DIR/$SVC_TEMPORAL_SCRIPT.sh" status)"; then
    SVC_TEMPORAL_PORT="$(svc__status_port "$st")"
    SVC_TEMPORAL_UI_PORT="$(svc__status_port "$st" ui)"
  elif svc_port_in_use "$SVC_TEMPORAL_PORT" || svc_port_in_use "$SVC_TEMPORAL_UI_PORT"; then
    port="$(svc_find_free_port "$SVC_TEMPORAL_PORT" "$ui_offset")" || svc_die "no free ports near $SVC_TEMPORAL_PORT for Temporal"
    svc_log "port $SVC_TEMPORAL_PORT or $SVC_TEMPORAL_UI_PORT is taken by another process; Temporal will use $port (UI $((port + ui_offset)))"
    SVC_TEMPORAL_PORT="$port"
    SVC_TEMPORAL_UI_PORT="$((port + ui_offset))"
  fi
}

# MariaDB is the peer of the `mysql` data sources' tests only (scripts/mariadb.sh): when it cannot be
# installed or started, everything else still runs and those tests fail saying why (SVC_MARIADB_ERROR).
svc__mariadb_up() {
  local st port
  if [[ "${SVC_AUTO_PORTS:-0}" == 1 ]]; then
    if st="$(bash "$SVC_SCRIPTS_DIR/mariadb.sh" status)"; then
      SVC_MARIADB_PORT="$(svc__status_port "$st")"
    elif svc_port_in_use "$SVC_MARIADB_PORT"; then
      port="$(svc_find_free_port "$SVC_MARIADB_PORT")" || port="$SVC_MARIADB_PORT"
      SVC_MARIADB_PORT="$port"
    fi
  fi
  export SVC_MARIADB_PORT
  if ! bash "$SVC_SCRIPTS_DIR/mariadb.sh" status >/dev/null; then
    SVC_STARTED_SERVICES+=(mariadb)
  fi
  if bash "$SVC_SCRIPTS_DIR/mariadb.sh" start; then
    unset SVC_MARIADB_ERROR
  else
    export SVC_MARIADB_ERROR="MariaDB did not start (scripts/mariadb.sh start failed; see $SVC_DATA_DIR/mariadb.log)"
    svc_log "$SVC_MARIADB_ERROR; the mysql data-source tests will fail"
  fi
}

svc_services_up() {
  local name pids=() failed=0 i
  # Absolute, so that every script and the application agree on it whatever their directory.
  SVC_DATA_DIR="$(svc_abspath "$SVC_DATA_DIR")"
  : "${SVC_MARIADB_PORT:=33060}"
  export SVC_DATA_DIR SVC_PG_PORT SVC_PG_DB SVC_TEMPORAL_PORT SVC_TEMPORAL_UI_PORT SVC_MARIADB_PORT
  mkdir -p "$SVC_DATA_DIR"

  if [[ "${SVC_AUTO_PORTS:-0}" == 1 ]]; then
    svc__pick_ports
  fi

  # Claim each service that is not running yet before starting it, so that an interrupt in the
  # middle of a start still stops it.
  for name in postgres "$SVC_TEMPORAL_SCRIPT"; do
    if ! bash "$SVC_SCRIPTS_DIR/$name.sh" status >/dev/null; then
      SVC_STARTED_SERVICES+=("$name")
    fi
  done

  if [[ "$SVC_TEMPORAL_SCRIPT" == temporal ]]; then
    # Both start in parallel: Temporal's first start and initdb each take a few seconds.
    for name in postgres temporal; do
      bash "$SVC_SCRIPTS_DIR/$name.sh" start &
      pids+=($!)
    done
    for i in "${!pids[@]}"; do
      wait "${pids[$i]}" || failed=1
    done
  else
    # the real server keeps its databases in this cluster
    bash "$SVC_SCRIPTS_DIR/postgres.sh" start && bash "$SVC_SCRIPTS_DIR/temporal-pg.sh" start || failed=1
  fi
  ((failed == 0)) || svc_die "could not start the services (see the messages above)"
  svc__mariadb_up

  export DATABASE_URL="postgres://postgres@127.0.0.1:$SVC_PG_PORT/$SVC_PG_DB"
  export TEMPORAL_ADDRESS="127.0.0.1:$SVC_TEMPORAL_PORT"
  export TEMPORAL_NAMESPACE=default
  # The CLI binary (it contains the dev server), for code that wants to run one itself.
  TEMPORAL_CLI="$(bash "$SVC_SCRIPTS_DIR/temporal-cli.sh")"
  export TEMPORAL_CLI
}

# For a script that owns its services for its lifetime (test, bench, drill): tags its log lines with
# $1, makes SVC_DATA_DIR absolute, exports the settings the service scripts read, and stops whatever
# this invocation started on any exit (INT/TERM become normal exits, so the EXIT trap runs for them too).
svc_own_services() {
  SVC_LOG_TAG="$1"
  SVC_DATA_DIR="$(svc_abspath "$SVC_DATA_DIR")"
  export SVC_DATA_DIR SVC_PG_PORT SVC_PG_DB SVC_TEMPORAL_PORT SVC_TEMPORAL_UI_PORT SVC_PG_FAST SVC_AUTO_PORTS
  trap svc_services_down EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# Idempotent: safe to call from a trap after an explicit call.
svc_services_down() {
  local name pids=()
  ((${#SVC_STARTED_SERVICES[@]} > 0)) || return 0
  for name in "${SVC_STARTED_SERVICES[@]}"; do
    bash "$SVC_SCRIPTS_DIR/$name.sh" stop &
    pids+=($!)
  done
  wait "${pids[@]}" || true
  SVC_STARTED_SERVICES=()
}

svc_migrate() {
  [[ -f "$SVC_ROOT/db/migrate.ts" ]] || svc_die "db/migrate.ts not found"
  svc_log "applying database migrations"
  (cd "$SVC_ROOT" && npx tsx db/migrate.ts)
}
