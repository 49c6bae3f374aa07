#!/usr/bin/env bash
# Prints the path of a usable `temporal` CLI (which also contains the dev server).
#
# Order: $TEMPORAL_CLI, `temporal` on PATH, $ROOT/.tools/bin/temporal, else build it from source
# with `go install` into $ROOT/.tools/bin (the Temporal CLI's release binaries live outside the
# package registries, so building through the Go module proxy is the way that works everywhere).
#
# Usage: bash scripts/temporal-cli.sh          -> prints the path on stdout, progress on stderr
#        source scripts/temporal-cli.sh; svc_temporal_cli
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# Tried in order: the newest we verified first, older ones in case a newer one stops building
# with the installed Go toolchain.
SVC_TEMPORAL_CLI_VERSIONS=(v1.5.1 v1.4.1 v1.3.0)

# A binary counts as usable when it runs; this catches a truncated file from an interrupted build.
svc__temporal_cli_works() {
  [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1
}

svc__build_temporal_cli() {
  local bin_dir="$SVC_ROOT/.tools/bin" version
  command -v go >/dev/null 2>&1 ||
    svc_die "no Temporal CLI found and no Go toolchain to build one: install Go (>= 1.23), or put 'temporal' on PATH, or set TEMPORAL_CLI=/path/to/temporal"
  mkdir -p "$bin_dir"

  # Two scripts starting at once (say dev and test) must not build into the same place together:
  # take a lock, and look again once we hold it, since the other one may have finished the job.
  exec 9>"$SVC_ROOT/.tools/.temporal-build.lock"
  if ! flock -n 9; then
    SVC_LOG_TAG=temporal-cli svc_log "another process is building the Temporal CLI; waiting for it..."
    flock 9
  fi
  if svc__temporal_cli_works "$bin_dir/temporal"; then
    exec 9>&-
    printf '%s\n' "$bin_dir/temporal"
    return 0
  fi

  for version in "${SVC_TEMPORAL_CLI_VERSIONS[@]}"; do
    SVC_LOG_TAG=temporal-cli svc_log "building the Temporal CLI $version into $bin_dir (the first build takes several minutes; later ones reuse Go's build cache)"
    # -v lists each package as it compiles, so a long build visibly makes progress.
    # stdout of go goes to stderr too: our stdout is reserved for the path.
    if GOBIN="$bin_dir" go install -v "github.com/temporalio/cli/cmd/temporal@$version" >&2 &&
      svc__temporal_cli_works "$bin_dir/temporal"; then
      exec 9>&-
      SVC_LOG_TAG=temporal-cli svc_log "built $("$bin_dir/temporal" --version)"
      printf '%s\n' "$bin_dir/temporal"
      return 0
    fi
    SVC_LOG_TAG=temporal-cli svc_log "building the Temporal CLI $version failed"
  done
  exec 9>&-
  svc_die "could not build the Temporal CLI (tried ${SVC_TEMPORAL_CLI_VERSIONS[*]}); see the go output above"
}

svc_temporal_cli() {
  local found
  if [[ -n "${TEMPORAL_CLI:-}" ]]; then
    svc__temporal_cli_works "$TEMPORAL_CLI" || svc_die "TEMPORAL_CLI=$TEMPORAL_CLI is not a working executable"
    printf '%s\n' "$TEMPORAL_CLI"
  elif found="$(command -v temporal 2>/dev/null)" && svc__temporal_cli_works "$found"; then
    printf '%s\n' "$found"
  elif svc__temporal_cli_works "$SVC_ROOT/.tools/bin/temporal"; then
    printf '%s\n' "$SVC_ROOT/.tools/bin/temporal"
  else
    svc__build_temporal_cli
  fi
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_temporal_cli
fi
