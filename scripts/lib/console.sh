# shellcheck shell=bash
# The console (console/, docs/console.md): its own npm package, built into console/dist, which the API
# serves under /console/. Sourced by scripts/services.sh.
#
#   svc_console_install  npm install in console/ when its node_modules is missing or older than its lock file
#   svc_console_build    vite build when console/dist is missing or older than any of its sources
#   svc_ensure_chromium  Debian's chromium for the console's browser tests, installed when missing (root + apt)

SVC_CONSOLE_DIR_SRC="$SVC_ROOT/console"

svc_console_install() {
  [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]] && return 0
  if [[ ! -d "$SVC_CONSOLE_DIR_SRC/node_modules" ||
    "$SVC_CONSOLE_DIR_SRC/package-lock.json" -nt "$SVC_CONSOLE_DIR_SRC/node_modules/.package-lock.json" ]]; then
    svc_log "installing the console's dependencies (console/package-lock.json)"
    (cd "$SVC_CONSOLE_DIR_SRC" && npm install --no-audit --no-fund)
  fi
}

# True when console/dist/index.html is missing or any source is newer than it.
svc__console_stale() {
  local built="$SVC_CONSOLE_DIR_SRC/dist/index.html"
  [[ -f "$built" ]] || return 0
  [[ -n "$(find "$SVC_CONSOLE_DIR_SRC/src" "$SVC_CONSOLE_DIR_SRC/index.html" "$SVC_CONSOLE_DIR_SRC/vite.config.ts" \
    "$SVC_CONSOLE_DIR_SRC/package-lock.json" -newer "$built" -print -quit 2>/dev/null)" ]]
}

# A failed or impossible build is reported, not fatal: the API still runs (its /console/ says the console
# is not built) and the console's own tests fail with the reason.
svc_console_build() {
  svc__console_stale || return 0
  if [[ ! -d "$SVC_CONSOLE_DIR_SRC/node_modules" ]]; then
    svc_log "the console's dependencies are not installed (npm --prefix console install); not building it"
    return 0
  fi
  svc_log "building the console (console/ -> console/dist)"
  (cd "$SVC_CONSOLE_DIR_SRC" && npx --no-install vite build --logLevel warn) || svc_log "building the console failed"
}


svc_ensure_chromium() {
  if command -v chromium >/dev/null 2>&1 || [[ -n "${SVC_CHROMIUM:-}" ]]; then
    return 0
  fi
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    svc_log "Chromium not found; installing Debian's chromium for the console's browser tests"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >&2 ||
      svc_log "installing chromium failed; the console's browser tests will fail"
  else
    svc_log "Chromium not found: install it (apt-get install chromium) or set SVC_CHROMIUM; the console's browser tests need it"
  fi
}
