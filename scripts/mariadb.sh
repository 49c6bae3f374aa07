#!/usr/bin/env bash
# A private MariaDB server for development and tests, kept under $SVC_DATA_DIR: the `mysql` data
# sources' real peer (docs/api/data-sources.md).
#
# Usage: scripts/mariadb.sh start|stop|status
#
# Environment:
#   SVC_DATA_DIR              where the server lives (default: .data/dev, relative to the current dir)
#   SVC_MARIADB_PORT          TCP port on 127.0.0.1 (default: 33060)
#   SVC_MARIADB_OS_USER       OS user that runs the server when run as root (default: mysql)
#   SVC_MARIADB_START_TIMEOUT seconds to wait for readiness (default: 60)
#
# A missing server is installed with apt-get (as root), SVC_SKIP_INSTALL=1 or not: the `mysql` data
# sources' tests need a real one. Only when that fails does start fail, and scripts/services.sh then
# runs everything else and lets those tests fail saying why.
#
# Layout in $SVC_DATA_DIR: mariadb/ (the data), mariadb-run/ (socket, pid file), mariadb.log.
# Listens on 127.0.0.1 only. The account `svc`@`127.0.0.1` has every privilege and no password, like
# the PostgreSQL cluster's `postgres`: tests make their sample databases and read-only users with it.
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
SVC_LOG_TAG=mariadb

DATA_DIR="$(svc_abspath "${SVC_DATA_DIR:-.data/dev}")"
PORT="${SVC_MARIADB_PORT:-33060}"
OS_USER="${SVC_MARIADB_OS_USER:-mysql}"
START_TIMEOUT="${SVC_MARIADB_START_TIMEOUT:-60}"

DB_DIR="$DATA_DIR/mariadb"
RUN_DIR="$DATA_DIR/mariadb-run"
SOCKET="$RUN_DIR/mariadb.sock"
PID_FILE="$RUN_DIR/mariadb.pid"
LOG_FILE="$DATA_DIR/mariadb.log"

[[ "$PORT" =~ ^[0-9]+$ ]] || svc_die "SVC_MARIADB_PORT must be a number, got '$PORT'"

# mariadbd (10.5+) or the older mysqld name; /usr/sbin is not on every PATH.
find_server() {
  local name
  for name in mariadbd mysqld /usr/sbin/mariadbd /usr/sbin/mysqld; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}

# Installs the Debian package when the server is missing (we run as root in CI and on development
# machines).
ensure_installed() {
  find_server >/dev/null && return 0
  ((EUID == 0)) || svc_die "MariaDB is not installed: apt-get install mariadb-server (as root)"
  svc_log "installing mariadb-server (apt-get)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-server >>"$LOG_FILE" 2>&1; then
    apt-get update -q >>"$LOG_FILE" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-server >>"$LOG_FILE" 2>&1 ||
      { svc_log_tail "$LOG_FILE"; svc_die "could not install mariadb-server; see $LOG_FILE"; }
  fi
  find_server >/dev/null || svc_die "mariadb-server installed but no mariadbd/mysqld found"
}

as_owner() {
  if ((EUID == 0)); then (cd / && runuser -u "$OS_USER" -- "$@"); else "$@"; fi
}

client() { command -v mariadb || command -v mysql || svc_die "the mariadb client is missing"; }

svc_running_pid() {
  local pid
  [[ -f "$PID_FILE" ]] || return 1
  pid="$(cat "$PID_FILE")"
  svc_pid_alive "$pid" || return 1
  grep -qE 'mariadbd|mysqld' "/proc/$pid/cmdline" 2>/dev/null || return 1
  printf '%s\n' "$pid"
}

svc_running_summary() { echo "running (pid $1) on 127.0.0.1:$(cat "$RUN_DIR/port" 2>/dev/null || echo "$PORT"), data $DB_DIR"; }

init_data() {
  [[ -d "$DB_DIR/mysql" ]] && return 0
  svc_log "creating a new data directory in $DB_DIR"
  mkdir -p "$DB_DIR"
  ((EUID == 0)) && chown "$OS_USER:" "$DB_DIR"
  local install_db
  install_db="$(command -v mariadb-install-db || command -v mysql_install_db)" || svc_die "mariadb-install-db not found"
  if ! as_owner "$install_db" --no-defaults --datadir="$DB_DIR" --user="$OS_USER" \
    --auth-root-authentication-method=socket --skip-test-db >>"$LOG_FILE" 2>&1; then
    svc_log_tail "$LOG_FILE"
    svc_die "mariadb-install-db failed; see $LOG_FILE"
  fi
  touch "$DB_DIR/.svc-needs-account"
}

wait_ready() {
  local deadline=$((SECONDS + START_TIMEOUT))
  until [[ -S "$SOCKET" ]] && "$(client)" --no-defaults -S "$SOCKET" -u root -e 'select 1' >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      svc_log_tail "$LOG_FILE"
      svc_die "MariaDB on 127.0.0.1:$PORT not ready after ${START_TIMEOUT}s; see $LOG_FILE"
    fi
    sleep 0.3
  done
}

# The loopback-only admin account tests use (see the header).
create_account() {
  [[ -f "$DB_DIR/.svc-needs-account" ]] || return 0
  "$(client)" --no-defaults -S "$SOCKET" -u root -e \
    "CREATE USER IF NOT EXISTS 'svc'@'127.0.0.1'; GRANT ALL PRIVILEGES ON *.* TO 'svc'@'127.0.0.1' WITH GRANT OPTION;"
  rm -f "$DB_DIR/.svc-needs-account"
}

svc_start() {
  local pid server
  if pid="$(svc_running_pid)"; then
    svc_log "already running (pid $pid), reusing it"
    return 0
  fi
  if svc_port_in_use "$PORT"; then
    svc_die "127.0.0.1:$PORT is taken by another process; choose another SVC_MARIADB_PORT"
  fi
  server="$(find_server)"
  init_data
  svc_log "starting on 127.0.0.1:$PORT (data $DB_DIR, log $LOG_FILE)"
  # --no-defaults: nothing from /etc/mysql; setsid and 8>&- as in scripts/postgres.sh.
  as_owner setsid "$server" --no-defaults --datadir="$DB_DIR" --socket="$SOCKET" --pid-file="$PID_FILE" \
    --port="$PORT" --bind-address=127.0.0.1 --skip-name-resolve --log-error="$LOG_FILE" \
    --innodb-buffer-pool-size=32M --max-connections=200 8>&- </dev/null >/dev/null 2>&1 &
  echo "$PORT" >"$RUN_DIR/port"
  wait_ready
  create_account
  svc_log "ready: mysql://svc@127.0.0.1:$PORT"
}

svc_stop_server() {
  local pid="$1" deadline
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + 30))
  while svc_pid_alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
  if svc_pid_alive "$pid"; then
    svc_log "did not stop within 30s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

svc_prepare() {
  mkdir -p "$RUN_DIR"
  [[ -e "$LOG_FILE" ]] || touch "$LOG_FILE"
  if [[ "$1" == start ]]; then
    ensure_installed
    if ((EUID == 0)); then
      id -u "$OS_USER" >/dev/null 2>&1 || svc_die "running as root needs an OS user '$OS_USER' (the package creates it)"
      chown "$OS_USER:" "$RUN_DIR" "$LOG_FILE"
      # the server user must be able to walk down to the data dir
      local dir="" part
      IFS=/ read -ra parts <<<"${DATA_DIR#/}"
      for part in "${parts[@]}"; do
        [[ -n "$part" ]] || continue
        dir="$dir/$part"
        runuser -u "$OS_USER" -- test -x "$dir" 2>/dev/null || chmod o+x "$dir"
      done
    fi
  fi
}

svc_service_main mariadb "$DATA_DIR" "$@"
