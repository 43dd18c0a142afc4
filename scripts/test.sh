#!/usr/bin/env bash
# Sets up a fresh machine, builds everything with warnings as errors, and runs the test suite.
#
# Usage: scripts/test.sh [ctest args...]     e.g. scripts/test.sh -L gpu, scripts/test.sh -R manifest
# With no arguments (as CI runs it), the sanitizer job follows the main suite: scripts/sanitize.sh
# builds the harness, db and their tests under ASan + UBSan and runs the unit and end-to-end tests
# (about 9 min cold on 2 cores, 1.5 with a warm ccache). ABTEST_SKIP_SANITIZE=1 leaves it out;
# ctest arguments (a chosen subset) leave it out too. Either suite failing fails the script.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
scripts/setup.sh --with-tests
if [[ -f tests/oracles/package-lock.json ]] && command -v npm >/dev/null; then
  # Test-only oracles (snarkjs, @noble/curves), pinned by the lock file; never used by the product.
  npm ci --prefix tests/oracles --no-audit --no-fund --loglevel=error >/dev/null
fi
preset="${ABTEST_TEST_PRESET:-ci}"
# ccache keys on paths relative to the checkout, so a fresh clone in another folder reuses objects.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
# The default suite leaves out the `slow` and `fuzz` labels: scripts/fuzz.sh and
# `ctest --preset ci -L slow` run them.
status=0
ctest --preset "$preset" "$@" || status=$?
if [[ $# -eq 0 && "${ABTEST_SKIP_SANITIZE:-0}" != 1 ]]; then
  # Runs even when the main suite failed: its findings are independent and CI shows both.
  scripts/sanitize.sh || status=$?
fi
exit "$status"
