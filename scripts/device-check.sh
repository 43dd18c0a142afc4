#!/usr/bin/env bash
# On a host with an NVIDIA GPU: builds with ABTEST_CUDA=ON in build/device, runs the gpu-labelled
# tests (GPU = CPU on fresh random inputs, the CUDA proof = the CPU proof), prints gpu-bench's timing
# table (MSM 2^16…2^24 and coset NTT 2^16…2^26, each with B1 host registration off and on), then one
# `medium` proof on the GPU built with B1 off (build/device) and on (build/device-b1: B1 is a
# build-time toggle). Sized for < 8 minutes on an H200.
# Without a usable GPU it stops at the first step with an error (exit 1); it never waits on one.
#
# Usage: scripts/device-check.sh [gpu-bench args...]    e.g. --reps 5, --wbits-sweep 20, --json
# Env:   ABTEST_DEVICE_BUILD (default build/device; B1 on in it + "-b1"), ABTEST_JOBS (default: all
#        cores), ABTEST_DEVICE_PROOF (default medium; "none" leaves the proofs out)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
build="${ABTEST_DEVICE_BUILD:-build/device}"
jobs="${ABTEST_JOBS:-$(nproc)}"
start=$SECONDS

fail() { echo "error: $1" >&2; exit 1; }
step() { printf '\n== %s (%ds)\n' "$1" $((SECONDS - start)); }

step "device"
if command -v nvidia-smi >/dev/null; then
  timeout 30 nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv \
    || fail "nvidia-smi sees no usable GPU — run this on a host with an NVIDIA GPU and driver; CPU-only hosts use scripts/test.sh"
else
  echo "nvidia-smi not found; the device is probed after the build"
fi

step "configure + build ($build, -j$jobs)"
nvcc_arg=()
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc_arg=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DABTEST_CUDA=ON -DABTEST_BUILD_HARNESS=OFF \
  "${nvcc_arg[@]}" >/dev/null || fail "configure failed — is the CUDA toolkit (nvcc) installed? see the output above"
cmake --build "$build" -j "$jobs" --target gpu-bench gpu_api_test gpu_ntt_test gpu_msm_test groth16_gpu_prover_test \
  porep-bench || fail "build failed — see the compiler output above"
proof="${ABTEST_DEVICE_PROOF:-medium}"
if [[ "$proof" != none ]]; then
  # The same sources with B1 on, only what the proof needs; it builds while the tests run.
  cmake -S . -B "$build-b1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DABTEST_CUDA=ON -DABTEST_BUILD_HARNESS=OFF \
    -DABTEST_BUILD_TESTS=OFF -DABTEST_B1_HOST_REGISTER=ON "${nvcc_arg[@]}" >/dev/null || fail "configure of $build-b1 failed"
  cmake --build "$build-b1" -j "$jobs" --target porep-bench >"$build-b1.log" 2>&1 &
  b1_build=$!
fi

step "probe"
timeout 60 "$build/gpu/gpu-bench" --msm 8 --ntt 8 --reps 1 >/dev/null \
  || fail "gpu-bench cannot use the device (message above) — check the driver with nvidia-smi"

step "tests: ctest -L gpu"
# The device tests (label gpu) must run here, not skip: a skip means the device was not usable.
# The gpu_build tests (API without a device, kernel architectures) may skip where they do not apply.
log="$build/device-check-ctest.log"
(cd "$build" && timeout 420 ctest -L '^gpu$' --timeout 300 --output-on-failure -j 2 --no-tests=error) | tee "$log" \
  || fail "gpu tests failed — see $log"
! grep -q '\*\*\*Skipped' "$log" || fail "gpu tests were skipped on a GPU host — see $log"
(cd "$build" && timeout 120 ctest -L '^gpu_build$' --timeout 60 --output-on-failure) || fail "gpu_build tests failed"

# Nothing else may run while the kernels are timed.
if [[ "$proof" != none ]]; then wait "$b1_build" || fail "build of $build-b1 failed — see $build-b1.log"; fi
step "timings: gpu-bench $*"
timeout 360 "$build/gpu/gpu-bench" "$@" | tee "$build/device-check-bench.txt" \
  || fail "gpu-bench failed or ran past 6 minutes — see $build/device-check-bench.txt"

if [[ "$proof" != none ]]; then
  cache="$build/params"  # the first proof makes the parameters, the second loads them
  for dir in "$build" "$build-b1"; do
    step "proof: $dir/porep-bench single --preset $proof --backend cuda"
    timeout 180 "$dir/porep-bench" single --preset "$proof" --backend cuda --param-cache "$cache" \
      || fail "the $proof proof failed in $dir — see the output above"
  done
fi

step "done"
