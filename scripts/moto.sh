#!/usr/bin/env bash
# Prints the path of the `moto_server` command of a pinned moto (an S3-compatible server from PyPI that
# the S3 storage tests run on 127.0.0.1; docs/api/files.md, docs/testing.md).
#
# It lives in its own virtual environment, $ROOT/.tools/venv-moto, filled by pip from PyPI with every
# package pinned by version and hash (scripts/python/moto-requirements.txt; scripts/lib/pyvenv.sh).
#
# SVC_SKIP_INSTALL=1: use the venv when it holds the pinned version, fail rather than install.
#
# Usage: bash scripts/moto.sh          -> prints the path on stdout, progress on stderr
#        source scripts/moto.sh; svc_moto
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/pyvenv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/pyvenv.sh"

# The pinned release; moving it means remaking the requirements file (its header says how).
SVC_MOTO_VERSION=5.2.6

svc_moto() {
  svc_pinned_venv moto moto "$SVC_MOTO_VERSION" moto_server "$SVC_ROOT/scripts/python/moto-requirements.txt"
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_moto
fi
