#!/usr/bin/env bash
# Prints the path of the `moto_server` command of a pinned moto (an S3-compatible server from PyPI that
# the S3 storage tests run on 127.0.0.1; docs/api/files.md, docs/testing.md).
#
# It lives in its own virtual environment, $ROOT/.tools/venv-moto, made with `python3 -m venv` and
# filled by pip from PyPI with every package pinned by version and hash
# (scripts/python/moto-requirements.txt). A venv that already holds the pinned version is reused, so
# later runs take milliseconds and need no network.
#
# SVC_SKIP_INSTALL=1: use the venv when it holds the pinned version, fail rather than install.
#
# Usage: bash scripts/moto.sh          -> prints the path on stdout, progress on stderr
#        source scripts/moto.sh; svc_moto
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# The pinned release; moving it means remaking the requirements file (its header says how).
SVC_MOTO_VERSION=5.2.6

svc__moto_is_pinned() {
  [[ -x "$1/bin/moto_server" ]] &&
    [[ "$("$1/bin/python" -c 'import importlib.metadata as m; print(m.version("moto"))' 2>/dev/null)" == "$SVC_MOTO_VERSION" ]]
}

svc_moto() {
  local SVC_LOG_TAG=moto venv="$SVC_ROOT/.tools/venv-moto"
  local requirements="$SVC_ROOT/scripts/python/moto-requirements.txt"
  if svc__moto_is_pinned "$venv"; then
    printf '%s\n' "$venv/bin/moto_server"
    return 0
  fi
  if [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]]; then
    svc_die "moto $SVC_MOTO_VERSION is not in $venv and SVC_SKIP_INSTALL=1 forbids installing it (run bash scripts/moto.sh once)"
  fi
  command -v python3 >/dev/null 2>&1 || svc_die "python3 is needed to install moto"
  # Two runs starting at once must not pip into the same venv together.
  mkdir -p "$SVC_ROOT/.tools"
  exec 8>"$SVC_ROOT/.tools/.moto.lock"
  if ! flock -n 8; then
    svc_log "another process is installing moto; waiting for it..."
    flock 8
  fi
  if ! svc__moto_is_pinned "$venv"; then
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
      rm -rf "$venv"
      svc_log "creating $venv (python3 -m venv)"
      python3 -m venv "$venv" >&2 || svc_die "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
    fi
    svc_log "installing moto[server]==$SVC_MOTO_VERSION (hash-pinned) from PyPI into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
      -r "$requirements" >&2 ||
      svc_die "pip could not install $requirements (a hash mismatch means another Python or platform: remake the list)"
    svc__moto_is_pinned "$venv" || svc_die "$venv does not hold moto $SVC_MOTO_VERSION after installing it"
    svc_log "installed moto $SVC_MOTO_VERSION"
  fi
  exec 8>&-
  printf '%s\n' "$venv/bin/moto_server"
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_moto
fi
