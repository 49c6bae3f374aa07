#!/usr/bin/env bash
# TEMPORAL_CLI for the benchmark: the real CLI ($BENCH_REAL_TEMPORAL_CLI), with the dynamic config
# values in $BENCH_TEMPORAL_FLAGS (space-separated KEY=VALUE) added to `server start-dev`. Every
# other command passes through unchanged, so scripts/temporal.sh works as usual. `exec` keeps the pid
# that scripts/temporal.sh records and checks.
set -euo pipefail
real="${BENCH_REAL_TEMPORAL_CLI:?BENCH_REAL_TEMPORAL_CLI must name the temporal binary}"
if [[ "${1:-}" == server && "${2:-}" == start-dev ]]; then
  shift 2
  extra=()
  for kv in ${BENCH_TEMPORAL_FLAGS:-}; do extra+=(--dynamic-config-value "$kv"); done
  exec "$real" server start-dev "${extra[@]}" "$@"
fi
exec "$real" "$@"
