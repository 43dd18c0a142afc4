#!/usr/bin/env bash
# On a host with an NVIDIA GPU and the CUDA toolkit: builds the device pack (scripts/device-pack.sh)
# and runs it here — its run.sh runs the GPU = CPU tests (NTT 2^1…2^20, MSM 2^0…2^20), compute-
# sanitizer memcheck and racecheck where the tool is, gpu-bench's timing table (MSM 2^16…2^24, NTT
# 2^16…2^26, B1 off/on, each with its check) and the `small` proof on cpu and on cuda (B1 and D4 off
# and on), every stage even after a failure, in under 6 minutes on an H200; logs and summary.json in $OUT.
# A device without nvcc (the lent machines have none) takes a pack built elsewhere: copy the folder
# scripts/device-pack.sh writes and run its run.sh there.
# Without a usable GPU it stops at once with an error (exit 1); it never waits on one.
#
# Usage: scripts/device-check.sh [run.sh args...]      e.g. --stages bench,proof_cpu, or --dry-run
# Env:   ABTEST_DEVICE_PACK (default build/device-pack), OUT (default build/device-check-out)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
pack="${ABTEST_DEVICE_PACK:-build/device-pack}"
export OUT="${OUT:-build/device-check-out}"

if [[ " $* " != *" --dry-run "* ]] && ! timeout 30 nvidia-smi -L >/dev/null 2>&1; then
  echo "error: nvidia-smi sees no usable GPU — run this on a host with an NVIDIA GPU and driver; CPU-only hosts use scripts/test.sh" >&2
  exit 1
fi
scripts/device-pack.sh "$pack" || { rc=$?; echo "error: the device pack did not build (exit $rc) — see above" >&2; exit 1; }
exec "$pack/run.sh" "$@"
