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

# A venv's scripts name its Python by absolute path: a checkout moved or copied elsewhere keeps a venv whose
# python runs but whose COMMAND points at an interpreter that is gone. Such a venv is rebuilt, not reused.
svc__venv_runs() {
  local venv="$1" command="$2" shebang
  [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -m pip --version >/dev/null 2>&1 || return 1
  [[ -e "$venv/bin/$command" ]] || return 0
  IFS= read -r shebang <"$venv/bin/$command" || return 1
  shebang="${shebang#\#!}"
  [[ -x "${shebang%% *}" ]]
}

svc__venv_holds() {
  local venv="$1" package="$2" version="$3" command="$4"
  [[ -x "$venv/bin/$command" ]] && svc__venv_runs "$venv" "$command" &&
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
    # A venv left half-made by an interrupted run, made by another Python or moved is rebuilt whole.
    if ! svc__venv_runs "$venv" "$command"; then
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
