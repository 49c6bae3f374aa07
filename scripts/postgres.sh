#!/usr/bin/env bash
# A private PostgreSQL cluster for development and tests, kept under $SVC_DATA_DIR.
#
# Usage: scripts/postgres.sh start|stop|status
#
# Environment:
#   SVC_DATA_DIR          where the cluster lives (default: .data/dev, relative to the current dir)
#   SVC_PG_PORT           TCP port on 127.0.0.1 (default: 54320)
#   SVC_PG_DB             database created on start if missing (default: svc)
#   SVC_PG_FAST           1 = no fsync / no synchronous commit / no full page writes: fast and
#                         crash-unsafe, for the throwaway test cluster only (default: 0)
#   SVC_PG_BIN            directory with initdb/pg_ctl/postgres (default: found automatically)
#   SVC_PG_OS_USER        OS user that owns the cluster when run as root (default: postgres)
#   SVC_PG_START_TIMEOUT  seconds to wait for readiness (default: 60)
#
# Layout in $SVC_DATA_DIR: pg/ (the cluster), pg-socket/ (unix socket), postgres.log.
# Access is trust-only and TCP listens on 127.0.0.1 only: this cluster is never reachable from
# another machine, so it carries no password.
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
SVC_LOG_TAG=postgres

DATA_DIR="$(svc_abspath "${SVC_DATA_DIR:-.data/dev}")"
PORT="${SVC_PG_PORT:-54320}"
DB="${SVC_PG_DB:-svc}"
FAST="${SVC_PG_FAST:-0}"
OS_USER="${SVC_PG_OS_USER:-postgres}"
START_TIMEOUT="${SVC_PG_START_TIMEOUT:-60}"

PGDATA_DIR="$DATA_DIR/pg"
SOCKET_DIR="$DATA_DIR/pg-socket"
LOG_FILE="$DATA_DIR/postgres.log"

[[ "$PORT" =~ ^[0-9]+$ ]] || svc_die "SVC_PG_PORT must be a number, got '$PORT'"

# --- finding the binaries -----------------------------------------------------------------------

# Debian keeps the server binaries (initdb, pg_ctl, postgres) off PATH in /usr/lib/postgresql/N/bin.
# An existing cluster must be run by its own major version, so that one wins when it is installed.
find_pg_bin() {
  local want="" dir
  if [[ -n "${SVC_PG_BIN:-}" ]]; then
    printf '%s\n' "$SVC_PG_BIN"
    return
  fi
  [[ -f "$PGDATA_DIR/PG_VERSION" ]] && want="$(cat "$PGDATA_DIR/PG_VERSION")"
  if [[ -n "$want" && -x "/usr/lib/postgresql/$want/bin/initdb" ]]; then
    printf '%s\n' "/usr/lib/postgresql/$want/bin"
    return
  fi
  # The newest installed version.
  dir="$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -t/ -k5 -n | tail -n 1)"
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then
    printf '%s\n' "$dir"
  elif command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then
    pg_config --bindir
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
  else
    svc_die "PostgreSQL server binaries not found: install PostgreSQL (apt-get install postgresql) or set SVC_PG_BIN"
  fi
}

# Client tools may live next to the server binaries or only on PATH.
pg_tool() {
  if [[ -x "$PG_BIN/$1" ]]; then printf '%s\n' "$PG_BIN/$1"; else command -v "$1" || svc_die "$1 not found"; fi
}

# --- running as the cluster owner ---------------------------------------------------------------

# PostgreSQL refuses to run as root. As root, run its binaries as $OS_USER (from /, so that a
# current directory the user cannot enter does not produce warnings); otherwise as ourselves.
as_owner() {
  if ((EUID == 0)); then
    (cd / && runuser -u "$OS_USER" -- "$@")
  else
    "$@"
  fi
}

# As root, the owner must be able to walk down to the data dir: add o+x (enter, not list) to each
# ancestor that lacks it. Without this, initdb fails with a confusing "permission denied".
# Top-down, because a directory cannot be reached while one of its parents blocks the way.
ensure_owner_can_reach() {
  local target="$1" dir="" part
  ((EUID == 0)) || return 0
  local -a parts
  IFS=/ read -ra parts <<<"${target#/}"
  for part in "${parts[@]}"; do
    [[ -n "$part" ]] || continue
    dir="$dir/$part"
    if ! runuser -u "$OS_USER" -- test -x "$dir" 2>/dev/null; then
      svc_log "chmod o+x $dir (so that the '$OS_USER' user can reach the cluster)"
      chmod o+x "$dir"
    fi
  done
}

# Create a directory (or file) owned by the cluster owner.
make_owned() {
  local kind="$1" path="$2" mode="$3"
  if [[ "$kind" == dir ]]; then mkdir -p "$path"; else touch "$path"; fi
  ((EUID == 0)) && chown "$OS_USER:" "$path"
  chmod "$mode" "$path"
}

# --- state --------------------------------------------------------------------------------------

# postmaster.pid: line 1 = pid, line 4 = port. The cluster runs when that pid is a live postgres.
svc_running_pid() {
  local pid
  [[ -f "$PGDATA_DIR/postmaster.pid" ]] || return 1
  pid="$(sed -n 1p "$PGDATA_DIR/postmaster.pid")"
  svc_pid_alive "$pid" || return 1
  grep -q postgres "/proc/$pid/cmdline" 2>/dev/null || return 1
  printf '%s\n' "$pid"
}

running_port() { sed -n 4p "$PGDATA_DIR/postmaster.pid"; }

# pg_isready exits 0 only when the server accepts connections.
wait_ready() {
  local deadline=$((SECONDS + START_TIMEOUT))
  until "$(pg_tool pg_isready)" -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -t 2; do
    if ((SECONDS >= deadline)); then
      svc_log_tail "$LOG_FILE"
      svc_die "PostgreSQL on 127.0.0.1:$PORT not ready after ${START_TIMEOUT}s; see $LOG_FILE"
    fi
    sleep 0.3
  done
}

psql_admin() {
  "$(pg_tool psql)" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U postgres -d postgres "$@"
}

# --- setup --------------------------------------------------------------------------------------

init_cluster() {
  if [[ -f "$PGDATA_DIR/PG_VERSION" ]]; then
    return 0
  fi
  if [[ -d "$PGDATA_DIR" ]] && [[ -n "$(ls -A "$PGDATA_DIR" 2>/dev/null)" ]]; then
    svc_die "$PGDATA_DIR is not empty but holds no cluster (an interrupted initdb?); remove it and retry"
  fi
  svc_log "creating a new cluster in $PGDATA_DIR"
  make_owned dir "$PGDATA_DIR" 700
  local extra=()
  # Skipping initdb's fsync saves seconds; a test cluster is thrown away after a crash anyway.
  [[ "$FAST" == 1 ]] && extra+=(--no-sync)
  # --locale=C: byte-order collation, the same on every machine, and no dependency on the
  # locales installed here. trust: no passwords on a loopback-only private cluster.
  if ! as_owner "$PG_BIN/initdb" -D "$PGDATA_DIR" -U postgres --auth=trust -E UTF8 --locale=C \
    --no-instructions "${extra[@]}" >>"$LOG_FILE" 2>&1; then
    svc_log_tail "$LOG_FILE"
    svc_die "initdb failed; see $LOG_FILE"
  fi
  # Our settings live in their own file, rewritten on every start, so that changing the port or
  # SVC_PG_FAST takes effect on the next start without editing postgresql.conf.
  printf "\n# settings managed by scripts/postgres.sh\ninclude_if_exists = 'svc.conf'\n" >>"$PGDATA_DIR/postgresql.conf"
}

write_settings() {
  local conf="$PGDATA_DIR/svc.conf"
  {
    echo "# Written by scripts/postgres.sh on every start; edits here are lost."
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $PORT"
    # Inside the data dir, not /var/run/postgresql: no root-owned system path is needed, and
    # several clusters (dev, test) can run side by side.
    echo "unix_socket_directories = '$SOCKET_DIR'"
    # The API, the worker and parallel jest workers each hold a pool.
    echo "max_connections = 200"
    echo "timezone = 'UTC'"
    echo "log_timezone = 'UTC'"
    echo "log_line_prefix = '%m [%p] %q%u@%d '"
    if [[ "$FAST" == 1 ]]; then
      echo "# SVC_PG_FAST=1: durability off. A crash can corrupt this cluster: test data only."
      echo "fsync = off"
      echo "synchronous_commit = off"
      echo "full_page_writes = off"
    fi
  } >"$conf"
  ((EUID == 0)) && chown "$OS_USER:" "$conf"
  chmod 600 "$conf"
}

# Unix sockets paths are limited to about 107 bytes; fail clearly rather than with a cryptic error.
check_socket_path() {
  local path="$SOCKET_DIR/.s.PGSQL.$PORT"
  if ((${#path} > 100)); then
    svc_die "SVC_DATA_DIR is too deep for a unix socket path ($path is ${#path} bytes, max ~100); use a shorter SVC_DATA_DIR"
  fi
}

create_database() {
  local exists
  exists="$(printf "SELECT 1 FROM pg_database WHERE datname = :'db'" | psql_admin -tA -v db="$DB")"
  if [[ "$exists" != 1 ]]; then
    svc_log "creating database $DB"
    "$(pg_tool createdb)" -h 127.0.0.1 -p "$PORT" -U postgres -- "$DB"
  fi
}

# --- commands -----------------------------------------------------------------------------------

svc_start() {
  local pid port
  if pid="$(svc_running_pid)"; then
    port="$(running_port)"
    if [[ "$port" != "$PORT" ]]; then
      svc_die "the cluster in $PGDATA_DIR already runs on port $port, not $PORT: stop it first (scripts/postgres.sh stop) or set SVC_PG_PORT=$port"
    fi
    svc_log "already running (pid $pid) on 127.0.0.1:$PORT, reusing it"
  else
    if svc_port_in_use "$PORT"; then
      svc_die "127.0.0.1:$PORT is taken by another process (not the cluster in $PGDATA_DIR); stop it or choose another SVC_PG_PORT. Listener: $(ss -ltnpH "sport = :$PORT" 2>/dev/null | head -n 1 || true)"
    fi
    check_socket_path
    init_cluster
    write_settings
    make_owned dir "$SOCKET_DIR" 755
    svc_log "starting on 127.0.0.1:$PORT (data $PGDATA_DIR, log $LOG_FILE)"
    # pg_ctl -w waits until the server accepts connections; setsid keeps a Ctrl-C aimed at a
    # foreground script from reaching the server directly (the script stops it in its own order).
    # 8>&- : the server must not inherit our lock, or it would hold it for as long as it runs.
    if ! as_owner setsid -w "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -l "$LOG_FILE" -w -t "$START_TIMEOUT" -s start 8>&-; then
      svc_log_tail "$LOG_FILE"
      svc_die "PostgreSQL failed to start; see $LOG_FILE"
    fi
  fi
  wait_ready
  create_database
  svc_log "ready: postgres://postgres@127.0.0.1:$PORT/$DB"
}

svc_stop_server() {
  # fast = roll back open transactions and shut down cleanly, without waiting for clients.
  if ! as_owner "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -m fast -w -t 30 -s stop; then
    svc_log "fast shutdown timed out; using immediate shutdown"
    as_owner "$PG_BIN/pg_ctl" -D "$PGDATA_DIR" -m immediate -w -t 30 -s stop
  fi
}

svc_running_summary() {
  echo "running (pid $1) on 127.0.0.1:$(running_port), data $PGDATA_DIR"
}

# Before start or stop: the cluster owner, the way down to the data dir, the binaries, the log file.
svc_prepare() {
  if ((EUID == 0)) && ! id -u "$OS_USER" >/dev/null 2>&1; then
    svc_die "running as root needs an OS user '$OS_USER' to own the cluster (PostgreSQL refuses root): create it (useradd -r $OS_USER) or set SVC_PG_OS_USER"
  fi
  ensure_owner_can_reach "$DATA_DIR"
  PG_BIN="$(find_pg_bin)"
  # The log is written by the server (as the owner), so the owner must own it.
  [[ -e "$LOG_FILE" ]] || make_owned file "$LOG_FILE" 644
}

svc_service_main postgres "$DATA_DIR" "$@"
