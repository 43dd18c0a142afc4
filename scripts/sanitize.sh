#!/usr/bin/env bash
# Builds the harness and its tests with AddressSanitizer + UBSan (the `asan` preset, CPU only) and
# runs the unit and end-to-end tests under them. CI runs it after the main suite (scripts/test.sh).
#
# Usage: scripts/sanitize.sh [ctest args...]     e.g. scripts/sanitize.sh -L e2e
# Default: everything except the `slow`, `fuzz` and `gpu` labels; the pipeline is left out unless
# ABTEST_SANITIZE_PIPELINE=ON (its big-number tests are slow under ASan).
#
# The preset adds, beside address and undefined: float-cast-overflow (a double → integer conversion
# out of range is UB that GCC's `undefined` group leaves out; statistics code converts), and
# _GLIBCXX_ASSERTIONS (bounds checks on operator[] that ASan misses inside a vector's capacity, and
# library preconditions such as normal_distribution's stddev > 0).
# -g1 keeps the line tables that symbolized stack traces need at a third less compile time than -g.
# -Wno-maybe-uninitialized: at -O1 with ASan, g++ 12 warns falsely inside libstdc++'s <regex>
# (30 warnings from std::function in regex_automaton.h); the ci preset keeps the warning, as an error.
#
# Every sanitizer report is written to build/asan/sanitizer-logs/ as well as failing its process:
# the end-to-end tests run the `abtest` binary as a child and some expect it to fail (bad input,
# SIGKILL), so a report there could otherwise pass unseen. Any report fails this script.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
# ccache keys on paths relative to the checkout (as in scripts/test.sh), so clones share objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
cmake --preset asan -DABTEST_BUILD_PIPELINE="${ABTEST_SANITIZE_PIPELINE:-OFF}" >/dev/null
cmake --build --preset asan -j2
logs="$root/build/asan/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
# Leak checks on; any report is fatal (the preset compiles with -fno-sanitize-recover=all).
# detect_stack_use_after_return catches references to a returned function's locals.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1}:log_path=$logs/asan:log_exe_name=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}:log_path=$logs/ubsan:log_exe_name=1"
if [[ $# -eq 0 ]]; then
  set -- -LE "slow|fuzz|gpu"
fi
status=0
ctest --preset asan "$@" || status=$?
# One line is not a finding: LeakSanitizer's exit-time check ptrace-stops the process's threads,
# and when a test SIGKILLs `abtest` at that moment (the kill-point tests kill at random times) the
# register read fails with ESRCH; LSan says "Unable to get registers from thread N." and skips the
# dead thread (lsan_common.cpp, REGISTERS_UNAVAILABLE_FATAL). A log holding anything else counts.
benign='^==[0-9]+==Unable to get registers from thread [0-9]+\.$'
found=0
shopt -s nullglob
for f in "$logs"/*; do
  if grep -Evq "$benign" "$f"; then
    echo "---- sanitizer report: $f" >&2
    cat "$f" >&2
    found=$((found + 1))
  fi
done
if ((found)); then
  echo "sanitize: $found sanitizer report(s) above — fix the cause; reports stay in $logs" >&2
  ((status != 0)) || status=1
fi
exit "$status"
