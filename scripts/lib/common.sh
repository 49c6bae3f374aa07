# shellcheck shell=bash
# Helpers shared by the scripts in scripts/. Source it; it defines functions and SVC_ROOT only.

# Repository root: this file lives in scripts/lib/.
# shellcheck disable=SC2034 # used by the scripts that source this file
SVC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Messages go to stderr so that stdout stays usable for values (e.g. temporal-cli.sh prints a path).
# SVC_LOG_TAG names the script speaking, so interleaved output of parallel starts stays readable.
svc_log() { printf '[%s] %s\n' "${SVC_LOG_TAG:-svc}" "$*" >&2; }
svc_die() {
  printf '[%s] ERROR: %s\n' "${SVC_LOG_TAG:-svc}" "$*" >&2
  exit 1
}

# Turn a possibly relative path into an absolute one (relative to the current directory),
# without requiring it to exist yet.
svc_abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "${1#./}" ;;
  esac
}

# True when something accepts TCP connections on 127.0.0.1:$1. Uses bash's /dev/tcp so that no
# extra tool is needed; a closed loopback port refuses at once, so this is fast.
svc_port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Print the first port at or above $1 for which every offset given after it ($1+offset) is free
# too, trying 50 ports. Used when a test run may move away from a port someone else holds.
svc_find_free_port() {
  local base="$1" p off busy
  shift
  for ((p = base; p < base + 50; p++)); do
    busy=0
    for off in 0 "$@"; do
      if svc_port_in_use $((p + off)); then busy=1 && break; fi
    done
    if ((busy == 0)); then
      printf '%s\n' "$p"
      return 0
    fi
  done
  return 1
}

# Is $1 a live process? (kill -0 also works on processes of other users when we are root.)
svc_pid_alive() {
  [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null
}

# Waits until background process $1, just forked by this shell, has exec'd its program (through setsid,
# which execs it in turn); fails when it is gone (or a zombie) first, or after ${2:-10} seconds. Until the
# exec, the pid's command line and executable are this shell's, so a check of "is our server running" made
# at once calls a healthy start dead; on a busy machine that gap is long. Every script that starts a server
# in the background calls it.
svc_wait_exec() {
  local pid="$1" deadline=$((SECONDS + ${2:-10})) self exe
  self="$(readlink "/proc/$$/exe")"
  while :; do
    exe="$(readlink "/proc/$pid/exe" 2>/dev/null)" || return 1
    [[ "$exe" != "$self" && "${exe##*/}" != setsid ]] && return 0
    ((SECONDS < deadline)) || return 1
    sleep 0.02
  done
}

# The last lines of a log file, indented, to put a failure's cause right under the error.
svc_log_tail() {
  local file="$1" lines="${2:-30}"
  if [[ -s "$file" ]]; then
    printf '  --- last %s lines of %s ---\n' "$lines" "$file" >&2
    tail -n "$lines" "$file" | sed 's/^/  | /' >&2
  fi
}

# Is the process group led by $1 (a process started with setsid) still there, or at least its leader?
svc_group_alive() {
  kill -0 -- "-$1" 2>/dev/null || svc_pid_alive "$1"
}

# Stops the process group led by $1: SIGTERM, up to $2 seconds for it to exit, then SIGKILL. $3 names
# it in the log. Returns once the group is gone (or, after SIGKILL, 5 s at the most).
svc_stop_group() {
  local pid="$1" timeout="$2" what="${3:-pid $1}" deadline
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + timeout))
  while svc_group_alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
  if svc_group_alive "$pid"; then
    svc_log "$what did not stop within ${timeout}s; sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    deadline=$((SECONDS + 5))
    while svc_group_alive "$pid" && ((SECONDS < deadline)); do sleep 0.1; done
  fi
}

# The command line of a service script (scripts/postgres.sh, scripts/temporal.sh):
#   svc_service_main NAME DATA_DIR start|stop|status
# runs the command against the server kept in DATA_DIR. The script defines:
#   svc_running_pid        prints its server's pid; fails when that server does not run
#   svc_running_summary P  what `status` says after "NAME: " about the running server P; it must keep
#                          "on 127.0.0.1:PORT" (and "UI http://127.0.0.1:PORT") for scripts/services.sh
#   svc_start              starts the server, or reuses the one running
#   svc_stop_server P      stops the running server P
#   svc_prepare CMD        (optional) checks and set-up for start or stop, before the lock is taken
# `status` exits 0 when the server runs and 3 when not (the convention of pg_ctl status and LSB init
# scripts); start and stop run one at a time per data dir, under a lock in it, since two of them at
# once would race on the server's files.
svc_service_main() {
  local name="$1" data_dir="$2" cmd="${3:-}" pid
  case "$cmd" in
    start | stop) ;;
    status)
      if pid="$(svc_running_pid)"; then
        echo "$name: $(svc_running_summary "$pid")"
        return 0
      fi
      echo "$name: not running (data $data_dir)"
      return 3
      ;;
    *)
      echo "usage: $0 start|stop|status" >&2
      return 2
      ;;
  esac
  mkdir -p "$data_dir"
  if declare -F svc_prepare >/dev/null; then svc_prepare "$cmd"; fi
  # fd 8 holds the lock; the scripts close it for the servers they launch (8>&-), or a server would
  # hold the lock for as long as it runs.
  exec 8>"$data_dir/.$name.lock"
  flock -w 120 8 || svc_die "timed out waiting for the lock $data_dir/.$name.lock"
  if [[ "$cmd" == start ]]; then
    svc_start
  elif ! pid="$(svc_running_pid)"; then
    svc_log "not running ($data_dir)"
  else
    svc_log "stopping (pid $pid)"
    svc_stop_server "$pid"
    svc_log "stopped"
  fi
}
