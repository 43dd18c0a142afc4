#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan) and runs each for a bounded
# time, starting from the checked-in corpus (new inputs go to a scratch copy, not the source tree).
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default 60 s; targets: manifest parsers scenario cargo_metadata cargo counts
# A crash leaves its input in build/fuzz/artifacts/ and fails the script.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(manifest parsers scenario cargo_metadata cargo counts)

clangxx="$(command -v clang++ || command -v clang++-14 || true)"
if [[ -z "$clangxx" ]] || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "error: clang++ with libFuzzer not found — install clang-14 and libclang-rt-14-dev (scripts/setup.sh --with-tests)" >&2
  exit 2
fi
build="$root/build/fuzz"
cmake -S "$root/tests/fuzz" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$clangxx" >/dev/null
cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}"

mkdir -p "$build/artifacts"
status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  mkdir -p "$work"
  cp -n "$root/tests/fuzz/corpus/$t"/* "$work"/ 2>/dev/null || true
  echo "fuzz_$t: ${seconds} s"
  if ! "$build/fuzz_$t" "$work" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" 2>"$build/fuzz_$t.log"; then
    echo "error: fuzz_$t found a failure — see $build/fuzz_$t.log and the input in $build/artifacts/" >&2
    tail -40 "$build/fuzz_$t.log" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$t.log" | tail -2
  fi
done
exit $status
