#!/usr/bin/env bash
# Prints the directory of a built Temporal server for the production-shaped topology (docs/operations.md):
#   <dir>/bin/temporal-server     the server (frontend, history, matching, worker services)
#   <dir>/bin/temporal-sql-tool   creates its databases and applies its schema versions
#   <dir>/schema/postgresql/v12   the schema versions shipped in the module (temporal/, visibility/)
#
# Built from Temporal's Go module at a pinned version, cached in $SVC_TOOLS_DIR/temporal-server-<version>/:
# a directory that holds both binaries (each answering --version) is reused, so later runs take
# milliseconds and need neither network nor compiler. The build is the same discipline as the CLI's
# (scripts/temporal-cli.sh): a lock so that two starts never build into one directory together, older
# pinned versions tried when a newer one stops building with the installed Go toolchain.
#
# The server version is the one inside the pinned CLI's dev server (Server 1.32.0), so the topology runs
# what the tests run. A cold build downloads the module graph through the Go module proxy and compiles
# for several minutes on two cores (docs/operations.md has the measured time); later builds reuse Go's
# build cache.
#
# Environment:
#   SVC_SKIP_INSTALL=1          use a built directory, fail rather than build
#   SVC_GO_BUILD_JOBS=N         packages compiled at once (default 2; `go build -p`)
#   SVC_TEMPORAL_SERVER_DIR     a directory laid out as above, used as it is (must work)
#   SVC_TOOLS_DIR               where built tools are kept (default $ROOT/.tools); a fresh directory
#                               shows what a clean clone does, without throwing away the kept builds
#
# Usage: bash scripts/temporal-server.sh       -> prints the directory on stdout, progress on stderr
#        bash scripts/temporal-server.sh ui    -> prints the path of Temporal UI's server (`temporal-ui`),
#                                                built the same way from github.com/temporalio/ui-server/v2
#                                                at the UI version of the pinned CLI (2.54.1)
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# Newest first; each builds into its own directory.
SVC_TEMPORAL_SERVER_VERSIONS=(v1.32.0 v1.31.5)
SVC_TEMPORAL_UI_VERSION=v2.54.1
TOOLS_DIR="${SVC_TOOLS_DIR:-$SVC_ROOT/.tools}"

svc__server_dir_works() {
  [[ -x "$1/bin/temporal-server" && -x "$1/bin/temporal-sql-tool" ]] &&
    [[ -d "$1/schema/postgresql/v12/temporal/versioned" && -d "$1/schema/postgresql/v12/visibility/versioned" ]] &&
    "$1/bin/temporal-server" --version >/dev/null 2>&1 &&
    "$1/bin/temporal-sql-tool" --version >/dev/null 2>&1
}

svc__server_dir() {
  printf '%s/temporal-server-%s\n' "$TOOLS_DIR" "${1#v}"
}

# Builds `module/cmd/server@version` alone into $dir/bin/$name, in a throwaway module like the server's.
svc__go_build() {
  local module="$1" version="$2" package="$3" out="$4" jobs="${SVC_GO_BUILD_JOBS:-2}"
  mkdir -p "$out.src"
  printf 'module svc.local/build\n\ngo 1.26.8\n\nrequire %s %s\n' "$module" "$version" >"$out.src/go.mod"
  (cd "$out.src" && GOFLAGS=-mod=mod GOMAXPROCS="$jobs" go build -p "$jobs" -o "$out" "$package" >&2)
  local rc=$?
  rm -rf "$out.src"
  return "$rc"
}

svc_temporal_ui() {
  local dir="$TOOLS_DIR/temporal-ui-${SVC_TEMPORAL_UI_VERSION#v}" started=$SECONDS
  if [[ -x "$dir/bin/temporal-ui" ]] && "$dir/bin/temporal-ui" --version >/dev/null 2>&1; then
    printf '%s\n' "$dir/bin/temporal-ui"
    return 0
  fi
  [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]] && svc_die "Temporal UI is not built in $dir and SVC_SKIP_INSTALL=1 forbids building it"
  command -v go >/dev/null 2>&1 || svc_die "no Go toolchain to build Temporal UI"
  mkdir -p "$TOOLS_DIR"
  exec 7>"$TOOLS_DIR/.temporal-ui.lock"
  flock 7
  if ! [[ -x "$dir/bin/temporal-ui" ]]; then
    SVC_LOG_TAG=temporal-ui svc_log "building Temporal UI $SVC_TEMPORAL_UI_VERSION into $dir"
    mkdir -p "$dir/bin"
    svc__go_build github.com/temporalio/ui-server/v2 "$SVC_TEMPORAL_UI_VERSION" github.com/temporalio/ui-server/v2/cmd/server "$dir/bin/temporal-ui.new" ||
      svc_die "building Temporal UI $SVC_TEMPORAL_UI_VERSION failed; see the go output above"
    mv -f "$dir/bin/temporal-ui.new" "$dir/bin/temporal-ui"
    SVC_LOG_TAG=temporal-ui svc_log "built Temporal UI in $((SECONDS - started)) s"
  fi
  exec 7>&-
  printf '%s\n' "$dir/bin/temporal-ui"
}

# Builds one version into its directory: a throwaway module that requires the server module, so the build
# list is exactly the server's own go.mod requirements; -mod=mod lets go record their sums as it fetches.
svc__build_server() {
  local version="$1" dir src moddir jobs="${SVC_GO_BUILD_JOBS:-2}" started=$SECONDS
  dir="$(svc__server_dir "$version")"
  src="$dir.build"
  rm -rf "$src"
  mkdir -p "$src"
  cat >"$src/go.mod" <<EOF
module svc.local/temporalserver

go 1.26.8

require go.temporal.io/server $version
EOF
  SVC_LOG_TAG=temporal-server svc_log "building temporal-server and temporal-sql-tool $version into $dir (a cold build takes several minutes)"
  # stdout of go goes to stderr: our stdout is reserved for the path.
  if ! (cd "$src" && GOFLAGS=-mod=mod GOMAXPROCS="$jobs" go build -p "$jobs" -o "$src/bin/temporal-server" go.temporal.io/server/cmd/server >&2 &&
    GOFLAGS=-mod=mod GOMAXPROCS="$jobs" go build -p "$jobs" -o "$src/bin/temporal-sql-tool" go.temporal.io/server/cmd/tools/sql >&2); then
    SVC_LOG_TAG=temporal-server svc_log "building $version failed"
    return 1
  fi
  moddir="$(cd "$src" && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' go.temporal.io/server)" || return 1
  mkdir -p "$src/schema"
  cp -R "$moddir/schema/postgresql" "$src/schema/"
  chmod -R u+w "$src/schema"
  rm -rf "$dir"
  mv "$src" "$dir"
  svc__server_dir_works "$dir" || return 1
  SVC_LOG_TAG=temporal-server svc_log "built $("$dir/bin/temporal-server" --version 2>&1 | head -n 1) in $((SECONDS - started)) s"
}

svc_temporal_server() {
  local version dir
  if [[ -n "${SVC_TEMPORAL_SERVER_DIR:-}" ]]; then
    svc__server_dir_works "$SVC_TEMPORAL_SERVER_DIR" || svc_die "SVC_TEMPORAL_SERVER_DIR=$SVC_TEMPORAL_SERVER_DIR holds no working bin/temporal-server, bin/temporal-sql-tool and schema/postgresql/v12"
    printf '%s\n' "$SVC_TEMPORAL_SERVER_DIR"
    return 0
  fi
  for version in "${SVC_TEMPORAL_SERVER_VERSIONS[@]}"; do
    dir="$(svc__server_dir "$version")"
    if svc__server_dir_works "$dir"; then
      printf '%s\n' "$dir"
      return 0
    fi
  done
  if [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]]; then
    svc_die "no built Temporal server in $(svc__server_dir "${SVC_TEMPORAL_SERVER_VERSIONS[0]}") and SVC_SKIP_INSTALL=1 forbids building one (run bash scripts/temporal-server.sh once; it needs Go and the Go module proxy)"
  fi
  command -v go >/dev/null 2>&1 || svc_die "no Go toolchain to build the Temporal server (install Go ≥ 1.26, or set SVC_TEMPORAL_SERVER_DIR)"
  mkdir -p "$TOOLS_DIR"
  exec 7>"$TOOLS_DIR/.temporal-server.lock"
  if ! flock -n 7; then
    SVC_LOG_TAG=temporal-server svc_log "another process is building the Temporal server; waiting for it..."
    flock 7
  fi
  for version in "${SVC_TEMPORAL_SERVER_VERSIONS[@]}"; do
    dir="$(svc__server_dir "$version")"
    if svc__server_dir_works "$dir" || svc__build_server "$version"; then
      exec 7>&-
      printf '%s\n' "$dir"
      return 0
    fi
  done
  exec 7>&-
  svc_die "could not build the Temporal server (tried ${SVC_TEMPORAL_SERVER_VERSIONS[*]}); see the go output above"
}

# Executed (not sourced): print the directory.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  if [[ "${1:-}" == ui ]]; then svc_temporal_ui; else svc_temporal_server; fi
fi
