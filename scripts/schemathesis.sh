#!/usr/bin/env bash
# Prints the path of the `st` command of a pinned Schemathesis (the OpenAPI fuzzer that
# test/fuzz/schemathesis.test.ts runs against the served /v1/openapi.json; docs/testing.md).
#
# It lives in its own virtual environment, $ROOT/.tools/venv-schemathesis, made with
# `python3 -m venv` and filled by pip from PyPI (the only network it needs). A venv that already
# holds the pinned version is reused, so later runs take milliseconds and need no network.
#
# SVC_SKIP_INSTALL=1: use the venv when it holds the pinned version, fail rather than install.
#
# Usage: bash scripts/schemathesis.sh          -> prints the path on stdout, progress on stderr
#        source scripts/schemathesis.sh; svc_schemathesis
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# The pinned release. A newer one may add checks or change how it generates data; moving the pin
# is a deliberate change that comes with whatever fixes its findings need.
SVC_SCHEMATHESIS_VERSION=4.32.5

svc__st_is_pinned() {
  [[ -x "$1" ]] && "$1" --version 2>/dev/null | grep -q "version $SVC_SCHEMATHESIS_VERSION\$"
}

svc_schemathesis() {
  local SVC_LOG_TAG=schemathesis venv="$SVC_ROOT/.tools/venv-schemathesis"
  local st="$venv/bin/st"
  if svc__st_is_pinned "$st"; then
    printf '%s\n' "$st"
    return 0
  fi
  if [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]]; then
    svc_die "Schemathesis $SVC_SCHEMATHESIS_VERSION is not in $venv and SVC_SKIP_INSTALL=1 forbids installing it (run bash scripts/schemathesis.sh once)"
  fi
  command -v python3 >/dev/null 2>&1 || svc_die "python3 is needed to install Schemathesis"
  # Two runs starting at once must not pip into the same venv together; the one that waits looks
  # again once it holds the lock, since the other may have finished the work.
  mkdir -p "$SVC_ROOT/.tools"
  exec 8>"$SVC_ROOT/.tools/.schemathesis.lock"
  if ! flock -n 8; then
    svc_log "another process is installing Schemathesis; waiting for it..."
    flock 8
  fi
  if ! svc__st_is_pinned "$st"; then
    # A venv left half-made by an interrupted run (or made by another Python) is rebuilt whole.
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
      rm -rf "$venv"
      svc_log "creating $venv (python3 -m venv)"
      python3 -m venv "$venv" >&2 || svc_die "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
    fi
    svc_log "installing schemathesis==$SVC_SCHEMATHESIS_VERSION from PyPI into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      "schemathesis==$SVC_SCHEMATHESIS_VERSION" >&2 ||
      svc_die "pip could not install schemathesis==$SVC_SCHEMATHESIS_VERSION"
    svc__st_is_pinned "$st" || svc_die "$st does not report version $SVC_SCHEMATHESIS_VERSION after installing it"
    svc_log "installed $("$st" --version)"
  fi
  exec 8>&-
  printf '%s\n' "$st"
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_schemathesis
fi
