#!/usr/bin/env bash
# Prints the path of the `llmock` command of a pinned LLMock (an OpenAI-compatible mock server from PyPI,
# which this project did not write, that test/domain/models/realServer.test.ts runs on 127.0.0.1 to check
# the model provider against a real server: tool calls, final answers, usage, a 429 with Retry-After;
# docs/testing.md).
#
# It lives in its own virtual environment, $ROOT/.tools/venv-llmock, filled by pip from PyPI with every
# package pinned by version and hash (scripts/python/llmock-requirements.txt; scripts/lib/pyvenv.sh).
#
# SVC_SKIP_INSTALL=1: use the venv when it holds the pinned version, fail rather than install.
#
# Usage: bash scripts/llmock.sh          -> prints the path on stdout, progress on stderr
#        source scripts/llmock.sh; svc_llmock
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/pyvenv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/pyvenv.sh"

# The pinned release; moving it means remaking the requirements file (its header says how).
SVC_LLMOCK_VERSION=0.2.2

svc_llmock() {
  svc_pinned_venv llmock llmock "$SVC_LLMOCK_VERSION" llmock "$SVC_ROOT/scripts/python/llmock-requirements.txt"
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_llmock
fi
