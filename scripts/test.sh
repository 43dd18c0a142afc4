#!/usr/bin/env bash
# Sets up a fresh machine, builds everything with warnings as errors, and runs the test suite.
#
# Usage: scripts/test.sh [ctest args...]     e.g. scripts/test.sh -L gpu, scripts/test.sh -R manifest
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
# The default suite leaves out the `slow` and `fuzz` labels: scripts/fuzz.sh, scripts/sanitize.sh
# and `ctest --preset ci -L slow` run them.
ctest --preset "$preset" "$@"
