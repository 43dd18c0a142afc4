#!/usr/bin/env bash
# Builds the harness and its tests with AddressSanitizer + UBSan (the `asan` preset, CPU only) and
# runs the unit and end-to-end tests under them.
#
# Usage: scripts/sanitize.sh [ctest args...]     e.g. scripts/sanitize.sh -L e2e
# Default: everything except the `slow`, `fuzz` and `gpu` labels; the pipeline is left out unless
# ABTEST_SANITIZE_PIPELINE=ON (its big-number tests are slow under ASan).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
cmake --preset asan -DABTEST_BUILD_PIPELINE="${ABTEST_SANITIZE_PIPELINE:-OFF}" >/dev/null
cmake --build --preset asan -j2
# Leak checks on; any UBSan report is fatal (the preset compiles with -fno-sanitize-recover).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
if [[ $# -eq 0 ]]; then
  set -- -LE "slow|fuzz|gpu"
fi
ctest --preset asan "$@"
