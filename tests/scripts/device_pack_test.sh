#!/usr/bin/env bash
# The device pack is self-contained and its run.sh works: packs BUILD's CUDA programs
# (scripts/device-pack.sh --build-dir BUILD), then checks that every program's and library's ldd
# resolves inside the pack or to the C library and the CUDA driver, that the pack is under 64 MiB,
# that `run.sh --dry-run` lists every stage within 6 minutes of timeouts, and that a real run of a few
# stages (here, without a GPU, most of them fail) still runs each one and writes summary.json.
# Exit 0 pass, 1 fail, 77 skip (the build has no CUDA).
#
# Usage: tests/scripts/device_pack_test.sh BUILD_DIR
set -uo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
build="$(cd "${1:?usage: device_pack_test.sh BUILD_DIR}" && pwd)"
pack="$build/device-pack"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

start=$SECONDS
# Without the abtest bundle (four CUDA variant builds; tests/e2e/bundle_fixture_test.cpp covers bundles).
"$root/scripts/device-pack.sh" --build-dir "$build" --no-bundle "$pack"
rc=$?
((rc == 77)) && { echo "SKIP: this build has no CUDA — nothing to pack"; exit 77; }
((rc == 0)) || { echo "FAIL: scripts/device-pack.sh exited $rc"; exit 1; }
echo "packed in $((SECONDS - start)) s"

# 1. Self-contained: with run.sh's LD_LIBRARY_PATH, every needed library is in the pack or is the
#    C library / loader / CUDA driver.
system_lib='^(linux-vdso\.so|ld-linux[-a-z0-9_]*\.so|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libcuda\.so|libnvidia-)'
nbin=0
for f in "$pack"/bin/* "$pack"/lib/*; do
  [[ -f "$f" ]] || continue
  nbin=$((nbin + 1))
  while read -r name arrow path _; do
    [[ "$arrow" == "=>" ]] || continue
    if [[ "$path" == "not" ]]; then fail "$(basename "$f") needs $name, which is not in the pack"; continue; fi
    [[ "$path" == "$pack"/* ]] && continue
    [[ "$name" =~ $system_lib ]] || fail "$(basename "$f") loads $name from $path, outside the pack"
  done < <(LD_LIBRARY_PATH="$pack/lib" ldd "$f")
done
((nbin >= 6)) || fail "only $nbin programs and libraries in the pack"
for b in gpu-bench porep-bench gpu_api_test gpu_ntt_test gpu_msm_test groth16_gpu_prover_test; do
  [[ -x "$pack/bin/$b" ]] || fail "bin/$b missing"
done
# The CUDA runtime is linked in, not loaded.
if LD_LIBRARY_PATH="$pack/lib" ldd "$pack/bin/gpu-bench" | grep -q libcudart; then fail "gpu-bench loads libcudart dynamically"; fi

# 2. Under 64 MiB, described.
size_kib=$(du -sk "$pack" | cut -f1)
((size_kib < 64 * 1024)) || fail "the pack is $((size_kib / 1024)) MiB"
grep -q '^needs:.*glibc' "$pack/PACK.txt" || fail "PACK.txt does not say which glibc it needs"
echo "pack: $((size_kib / 1024)) MiB, $(cd "$pack/bin" && echo *) + $(cd "$pack/lib" && echo *)"

# 3. --dry-run lists every stage; the budget, which cuts every stage's timeout to what is left, fits in
#    6 minutes.
dry="$("$pack/run.sh" --dry-run)" || fail "run.sh --dry-run exited non-zero"
echo "$dry"
for s in device gpu_api ntt_equal msm_equal prover_equal memcheck racecheck bench proof_cpu proof_cuda_b1off_d4off \
         proof_cuda_b1on_d4off proof_cuda_b1off_d4on proof_cuda_b1on_d4on abtest; do
  grep -qE "^$s " <<<"$dry" || fail "run.sh --dry-run does not list stage $s"
done
budget=$(grep -o 'budget [0-9]* s' <<<"$dry" | grep -o '[0-9]*')
[[ -n "$budget" ]] && ((budget <= 360)) || fail "the budget is ${budget:-?} s, over 6 minutes"

# 4. A real run of four stages: each runs (and fails where there is no GPU), each leaves its log,
#    summary.json lists them, and the exit code agrees with its "failed" list.
out="$build/device-pack-out"
rm -rf "$out"
OUT="$out" ABTEST_PACK_BUDGET_S=120 "$pack/run.sh" --stages device,gpu_api,msm_equal,bench
rc=$?
[[ -s "$out/summary.json" ]] || fail "run.sh wrote no summary.json"
for s in device gpu_api msm_equal bench; do
  [[ -s "$out/$s.log" ]] || fail "no log for stage $s"
  grep -q "\"name\": \"$s\"" "$out/summary.json" || fail "summary.json does not list stage $s"
done
if grep -q '"failed": \[\]' "$out/summary.json"; then
  ((rc == 0)) || fail "run.sh exited $rc with no failed stage"
else
  ((rc == 1)) || fail "run.sh exited $rc with failed stages (expected 1)"
fi
if ! nvidia-smi >/dev/null 2>&1; then
  # Without a device the GPU stages must fail — a skipped GPU test is not a pass.
  grep -q '"name": "msm_equal", "status": "failed"' "$out/summary.json" || fail "msm_equal did not fail without a device"
  grep -q '"name": "gpu_api", "status": "passed"' "$out/summary.json" || fail "gpu_api (no device needed) did not pass"
fi

echo "device pack test: $failures failure(s) in $((SECONDS - start)) s"
((failures == 0))
