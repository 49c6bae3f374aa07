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

# The last lines of a log file, indented, to put a failure's cause right under the error.
svc_log_tail() {
  local file="$1" lines="${2:-30}"
  if [[ -s "$file" ]]; then
    printf '  --- last %s lines of %s ---\n' "$lines" "$file" >&2
    tail -n "$lines" "$file" | sed 's/^/  | /' >&2
  fi
}
