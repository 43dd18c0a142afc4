#!/usr/bin/env bash
# Installs every build and test dependency of abtest from Debian packages; idempotent.
#
# Usage: scripts/setup.sh [--with-tests]
#   --with-tests  also the test-only oracles: GMP, SciPy, Google Benchmark's compare.py, gnuplot,
#                 clang (libFuzzer), Node.js packages pinned in tests/oracles/package.json; and
#                 Debian's cargo/rustc with the crates the Cargo fixtures build offline (smallvec for
#                 cargo-indexer, Criterion for cargo-workspace and the Criterion format's fixture,
#                 regex for cargo-regex);
#                 Meson for the end-to-end test of a Meson project; hyperfine, pytest-benchmark,
#                 Catch2 and zstd, whose real output the format tests read.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config git libcli11-dev libfmt-dev nlohmann-json3-dev
          libsqlite3-dev sqlite3 libbenchmark-dev libgtest-dev libgmock-dev libboost-dev nettle-dev libsimdjson-dev libre2-dev ccache gnuplot-nox)
test_packages=(libgmp-dev python3 python3-scipy libbenchmark-tools clang libclang-rt-14-dev gnuplot-nox chromium slurm-wlm
               cargo librust-smallvec-dev librust-criterion-dev librust-regex-dev lld valgrind meson hyperfine python3-pytest-benchmark catch2 zstd)

want=("${packages[@]}")
[[ "${1:-}" == "--with-tests" ]] && want+=("${test_packages[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
