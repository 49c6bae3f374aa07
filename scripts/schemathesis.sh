#!/usr/bin/env bash
# Prints the path of the `st` command of a pinned Schemathesis (the OpenAPI fuzzer that
# test/fuzz/schemathesis.test.ts runs against the served /v1/openapi.json; docs/testing.md).
#
# It lives in its own virtual environment, $ROOT/.tools/venv-schemathesis, filled by pip from PyPI (the
# only network it needs; scripts/lib/pyvenv.sh).
#
# SVC_SKIP_INSTALL=1: use the venv when it holds the pinned version, fail rather than install.
#
# Usage: bash scripts/schemathesis.sh          -> prints the path on stdout, progress on stderr
#        source scripts/schemathesis.sh; svc_schemathesis
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/pyvenv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/pyvenv.sh"

# The pinned release. A newer one may add checks or change how it generates data; moving the pin
# is a deliberate change that comes with whatever fixes its findings need.
SVC_SCHEMATHESIS_VERSION=4.32.5

svc_schemathesis() {
  svc_pinned_venv schemathesis schemathesis "$SVC_SCHEMATHESIS_VERSION" st
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_schemathesis
fi
