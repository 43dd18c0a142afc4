#!/usr/bin/env bash
# run.sh of the device pack (scripts/device-pack.sh copies this file there): the first device run in
# one go. Needs the NVIDIA driver and nothing else (no compiler, no network). Every stage runs, even
# after another failed, each under its own timeout, all of them within ABTEST_PACK_BUDGET_S (under
# 6 minutes); every log, the timing rows and summary.json land in $OUT; failures are listed at the end.
#
# Usage: [OUT=DIR] ./run.sh [--dry-run] [--stages a,b,... | --msm]
#   --dry-run      list the stages (name, timeout, what they check) and exit 0
#   --stages LIST  run only these stages
#   --msm          the GPU MSM's check (design §11), under 5 minutes: the device, the field self-test,
#                  GPU MSM = CPU MSM up to 2^20, then the timings with the MSM's phases before
#                  (first_run kernels) and after (tuned) side by side
# The last stage runs the abtest bundle (bundle/run: B1, D4, B1+D4 vs base, the proof on cuda in
# interleaved rounds) within the time left; its verdicts close the summary, and its results
# ($OUT/abtest/results.db) go back with `abtest import $OUT/abtest` where abtest is.
# Env:   OUT (default ./out), ABTEST_PACK_BUDGET_S (default 350), ABTEST_COMPUTE_SANITIZER (its path;
#        default: on PATH or under /usr/local/cuda*), ABTEST_PACK_PRESET (default small),
#        ABTEST_PARAM_CACHE (the proofs' parameters, ~300 MB for small: kept out of $OUT; default
#        $TMPDIR or /tmp, abtest-device-pack-params)
# Exit:  0 every stage passed (a sanitizer stage without the tool is skipped); 1 otherwise; 2 bad usage.
set -uo pipefail
pack="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
export PACK="$pack" OUT="${OUT:-./out}"
export LD_LIBRARY_PATH="$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ABTEST_PACK_PRESET="${ABTEST_PACK_PRESET:-small}"
budget_s="${ABTEST_PACK_BUDGET_S:-350}"

# name | timeout (s) | what it checks | command (run by bash -c in $PACK, with $OUT, $SAN, $PRESET)
# Typical H200 times are a fraction of the timeouts (13 stages in 148 s at b3ec5fc); the abtest stage
# takes what is left of the budget, up to its own timeout, and stops between rounds (partial) at it.
stages=(
  "device|10|the GPU, driver, glibc, and that the programs load|nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version,clocks.max.sm --format=csv; rc=\$?; getconf GNU_LIBC_VERSION; grep needs: PACK.txt; bin/gpu-bench --msm 4 --ntt 4 --reps 1 || rc=1; exit \$rc"
  "gpu_api|15|the API on a device, kernel architectures|bin/gpu_api_test --gtest_output=json:\$OUT/gpu_api.json"
  "ntt_equal|25|GPU NTT = CPU NTT: forward, inverse, coset, 2^1…2^20|ABTEST_GPU_TEST_MAX_LG=20 bin/gpu_ntt_test --gtest_output=json:\$OUT/ntt_equal.json && no_skips"
  "field_equal|15|the device's 12×32 Fp: PTX = portable on the device = the host's 6×64 path|bin/gpu_field_test --gtest_output=json:\$OUT/field_equal.json && no_skips"
  "msm_equal|50|GPU MSM = CPU MSM: 2^0…2^20, several windows, zero / one / r−1 scalars, points at infinity|ABTEST_GPU_TEST_MAX_LG=20 bin/gpu_msm_test --gtest_output=json:\$OUT/msm_equal.json && no_skips"
  "prover_equal|25|cuda proofs = cpu proofs on test circuits, every A4 / D4 mode|bin/groth16_gpu_prover_test --gtest_output=json:\$OUT/prover_equal.json && no_skips"
  "memcheck|25|compute-sanitizer memcheck: NTT and MSM, 2^0…2^5, zero / one scalars|sanitize memcheck"
  "racecheck|25|compute-sanitizer racecheck (shared-memory hazards): the same cases|sanitize racecheck"
  "msm_phases|45|the field's mul/sqr throughput and latency (12×32 and 6×64), the MSM's phases at 2^16, 2^20, 2^24 (tuned kernels): the after column|bin/gpu-bench --msm 16,20,24 --reps 2 --phases-only --budget-s 30 --jsonl \$OUT/msm_phases.jsonl --phases-tsv \$OUT/phases.tsv"
  "msm_phases_first_run|45|the same phases with the first device run's kernels (ABTEST_GPU_MSM_KERNELS=first_run): the before column|bin/gpu-bench-first-run --msm 16,20,24 --reps 2 --phases-only --no-field --budget-s 30 --jsonl \$OUT/msm_phases_first_run.jsonl --phases-tsv \$OUT/phases.tsv"
  "bench|60|timings: MSM 2^16…2^24, NTT 2^16…2^26, kernel apart from transfers, B1 off/on, windows, each with its check|bin/gpu-bench --reps 3 --budget-s 50 --jsonl \$OUT/bench.jsonl"
  "proof_cpu|45|a \$PRESET proof on the CPU verifies|proof cpu default default"
  "proof_cuda_b1off_d4off|10|a \$PRESET proof on cuda (B1 off, D4 off) verifies, = the CPU proof|proof cuda off shared"
  "proof_cuda_b1on_d4off|10|the same with B1 on|proof cuda on shared"
  "proof_cuda_b1off_d4on|10|the same with D4 on|proof cuda off per_msm"
  "proof_cuda_b1on_d4on|10|the same with B1 and D4 on|proof cuda on per_msm"
  "abtest|170|abtest's verdicts: B1, D4, B1+D4 vs base, the proof on cuda, interleaved rounds, CIs|abtest_bundle"
)

# Helpers the stage commands call (exported to their bash -c).
no_skips() {  # a device stage whose tests skipped did not run them
  if grep -q '\[  SKIPPED \]' "$LOG"; then echo "FAIL: tests were skipped on the device (see above)"; return 1; fi
}
sanitize() {  # compute-sanitizer --tool $1 on GPU tests at 2^5 and below; exit 3 = no tool
  [[ -n "$SAN" ]] || { echo "SKIP: compute-sanitizer not found (set ABTEST_COMPUTE_SANITIZER)"; return 3; }
  local rc=0
  ABTEST_GPU_TEST_MAX_LG=5 "$SAN" --tool "$1" --error-exitcode 1 bin/gpu_ntt_test --gtest_brief=1 \
    --gtest_filter='gpu_ntt.equals_cpu*' || rc=1
  ABTEST_GPU_TEST_MAX_LG=5 "$SAN" --tool "$1" --error-exitcode 1 bin/gpu_msm_test --gtest_brief=1 \
    --gtest_filter='gpu_msm.equals_cpu_at_every_size*:gpu_msm.zero_scalars*' || rc=1
  return $rc
}
proof() {  # proof BACKEND HOST_REGISTER MSM_WINDOW: a $PRESET proof, its json in $OUT/$STAGE.json
  local json="$OUT/$STAGE.json"
  bin/porep-bench single --preset "$PRESET" --backend "$1" --host-register "$2" --msm-window "$3" \
    --param-cache "$PARAMS" --json >"$json" || return 1
  cat "$json"
  local mine cpu
  mine="$(grep -o '"proofs_digest":"[0-9a-f]*"' "$json")"
  if [[ "$1" == cuda ]]; then
    grep -q '"backend":"cuda"' "$json" || { echo "FAIL: the proof did not run on cuda"; return 1; }
    cpu="$(grep -o '"proofs_digest":"[0-9a-f]*"' "$OUT/proof_cpu.json" 2>/dev/null)"
    [[ -n "$cpu" ]] || { echo "FAIL: no CPU proof to compare with (stage proof_cpu)"; return 1; }
    [[ "$mine" == "$cpu" ]] || { echo "FAIL: the cuda proofs differ from the CPU ones ($mine vs $cpu)"; return 1; }
    echo "the cuda proofs equal the CPU proofs: $mine"
  fi
}
abtest_bundle() {  # the bundle's runner, stopping between rounds before the stage's time is up; exit 3 = no bundle
  [[ -x bundle/run ]] || { echo "SKIP: this pack has no abtest bundle (made with --no-bundle)"; return 3; }
  bundle/run --check || return 1
  ABTEST_PARAM_CACHE="$PARAMS" bundle/run --out "$OUT/abtest" --budget-s "$((TIMEOUT > 30 ? TIMEOUT - 20 : 10))" \
    >"$OUT/abtest_verdicts.txt"
  local rc=$?
  cat "$OUT/abtest_verdicts.txt"
  return $rc  # 1: partial (the budget ended it between rounds)
}
export -f no_skips sanitize proof abtest_bundle

find_sanitizer() {
  if [[ -n "${ABTEST_COMPUTE_SANITIZER:-}" ]]; then echo "$ABTEST_COMPUTE_SANITIZER"; return; fi
  command -v compute-sanitizer 2>/dev/null && return
  local c
  for c in /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer \
           /opt/nvidia/*/compute-sanitizer/compute-sanitizer; do
    [[ -x "$c" ]] && { echo "$c"; return; }
  done
}

dry_run=0 only=""
while (($#)); do
  case "$1" in
    --dry-run) dry_run=1; shift ;;
    --stages) only=",${2:?--stages needs a list},"; shift 2 ;;
    --msm) only=",device,field_equal,msm_equal,msm_phases,msm_phases_first_run,"; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "error: unknown argument $1 — see ./run.sh --help" >&2; exit 2 ;;
  esac
done

if [[ -n "$only" ]]; then  # every name asked for must be a stage
  names=","
  for s in "${stages[@]}"; do names+="${s%%|*},"; done
  for a in ${only//,/ }; do
    [[ "$names" == *",$a,"* ]] || { echo "error: --stages: no stage '$a' — ./run.sh --dry-run lists them" >&2; exit 2; }
  done
fi

if ((dry_run)); then
  printf '%-24s %8s  %s\n' stage timeout "what it checks"
  total=0
  for s in "${stages[@]}"; do
    IFS='|' read -r name timeout what cmd <<<"$s"
    printf '%-24s %7ss  %s\n' "$name" "$timeout" "${what//\$PRESET/$ABTEST_PACK_PRESET}"
    printf '%-24s %8s    $ %s\n' "" "" "$cmd"
    total=$((total + timeout))
  done
  echo "stages: ${#stages[@]}, timeouts add up to ${total} s; budget ${budget_s} s; logs and summary.json in \$OUT ($OUT)"
  missing=0
  for b in gpu-bench gpu-bench-first-run porep-bench gpu_api_test gpu_field_test gpu_ntt_test gpu_msm_test \
           groth16_gpu_prover_test; do
    [[ -x "$pack/bin/$b" ]] || { echo "missing: bin/$b" >&2; missing=1; }
  done
  [[ -x "$pack/bundle/run" ]] || echo "no bundle/run: the abtest stage will be skipped (a pack made with --no-bundle)" >&2
  exit $missing
fi

mkdir -p "$OUT" || { echo "error: cannot create OUT=$OUT" >&2; exit 2; }
OUT="$(cd "$OUT" && pwd)"
cp "$pack/PACK.txt" "$OUT/" 2>/dev/null  # which build these results are from
cp "$pack"/ptxas*.txt "$OUT/" 2>/dev/null  # registers and spills per kernel, as ptxas reported them when packing
export OUT SAN="$(find_sanitizer)" PRESET="$ABTEST_PACK_PRESET"
export PARAMS="${ABTEST_PARAM_CACHE:-${TMPDIR:-/tmp}/abtest-device-pack-params}"
cd "$pack"
start=$SECONDS
results=()  # name|status|rc|seconds|log
failed=()
for s in "${stages[@]}"; do
  IFS='|' read -r name timeout what cmd <<<"$s"
  [[ -z "$only" || "$only" == *",$name,"* ]] || continue
  log="$OUT/$name.log"
  left=$((budget_s - (SECONDS - start)))
  if ((left < 3)); then
    echo "no time left in the ${budget_s} s budget" >"$log"
    results+=("$name|skipped|0|0|$log"); failed+=("$name (no time left)")
    printf '== %-24s skipped: no time left\n' "$name"
    continue
  fi
  ((timeout > left)) && timeout=$left
  printf '== %-24s (≤ %3ss) %s\n' "$name" "$timeout" "${what//\$PRESET/$PRESET}"
  t0=$SECONDS
  STAGE="$name" LOG="$log" TIMEOUT="$timeout" timeout -k 5 "$timeout" bash -c "$cmd" >"$log" 2>&1
  rc=$?
  dt=$((SECONDS - t0))
  case $rc in
    0) status=passed ;;
    124|137) status=timeout; failed+=("$name (timed out after ${timeout} s)") ;;
    3) if [[ "$name" == memcheck || "$name" == racecheck || "$name" == abtest ]]; then status=skipped
       else status=failed; failed+=("$name (exit 3)"); fi ;;
    1) if [[ "$name" == abtest ]]; then status=partial  # measured, fewer rounds than planned: the verdicts say so
       else status=failed; failed+=("$name (exit 1)"); fi ;;
    *) status=failed; failed+=("$name (exit $rc)") ;;
  esac
  results+=("$name|$status|$rc|$dt|$log")
  printf '   %-24s %s in %s s — %s\n' "$name" "$status" "$dt" "$log"
  [[ $status == failed || $status == timeout ]] && tail -5 "$log" | sed 's/^/   | /'
done

# The MSM's phases before (first_run kernels) and after (tuned), side by side, from phases.tsv
# (lines: kernels kind lg_n phase kernel_s; the first row of a (kernels, size, phase) wins).
{
  printf '%-8s %-11s %12s %12s %8s\n' size phase first_run_s tuned_s ratio
  awk -F'\t' '
    $2 == "msm" { key = $3 "\t" $4; if (!((key, $1) in t)) { t[key, $1] = $5; if (!(key in seen)) { seen[key] = 1; order[n++] = key } } }
    END {
      for (i = 0; i < n; ++i) {
        split(order[i], k, "\t"); b = t[order[i], "first_run"]; a = t[order[i], "tuned"]
        printf "2^%-6s %-11s %12s %12s %8s\n", k[1], k[2], (b == "" ? "-" : sprintf("%.6f", b)),
          (a == "" ? "-" : sprintf("%.6f", a)), (a != "" && b != "" && a > 0 ? sprintf("%.2fx", b / a) : "-")
      }
    }' "$OUT/phases.tsv" 2>/dev/null
} >"$OUT/msm_phases.txt"

# Phase times side by side, from the proofs' json.
num() { grep -o "\"$2\":[-0-9.e+]*" "$1" 2>/dev/null | head -1 | cut -d: -f2; }
{
  printf '%-24s %8s %9s %8s %8s %8s %8s %8s %8s %8s %9s %8s\n' proof total_s synthesis ntt_s msm_h msm_l msm_a \
    msm_b_g1 msm_b_g2 gpu_s transfer_s register
  for j in "$OUT"/proof_*.json; do
    [[ -s "$j" ]] || continue
    printf '%-24s %8s %9s %8s %8s %8s %8s %8s %8s %8s %9s %8s\n' "$(basename "$j" .json)" "$(num "$j" total_s)" \
      "$(num "$j" synthesis_s)" "$(num "$j" ntt_s)" "$(num "$j" msm_h_s)" "$(num "$j" msm_l_s)" "$(num "$j" msm_a_s)" \
      "$(num "$j" msm_b_g1_s)" "$(num "$j" msm_b_g2_s)" "$(num "$j" gpu_s)" "$(num "$j" transfer_s)" \
      "$(num "$j" host_register_s)"
  done
} >"$OUT/proof_phases.txt"

# summary.json, written without jq (the device may have none).
esc() { local s="${1//\\/\\\\}"; s="${s//\"/\\\"}"; printf '%s' "$s"; }
{
  printf '{\n  "pack": "%s",\n' "$(esc "$(head -2 "$pack/PACK.txt" | tail -1)")"
  printf '  "device": "%s",\n' "$(esc "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)")"
  printf '  "compute_sanitizer": "%s",\n  "budget_s": %s,\n  "elapsed_s": %s,\n' "$(esc "$SAN")" "$budget_s" "$((SECONDS - start))"
  printf '  "stages": [\n'
  for i in "${!results[@]}"; do
    IFS='|' read -r name status rc dt log <<<"${results[$i]}"
    printf '    {"name": "%s", "status": "%s", "exit": %s, "seconds": %s, "log": "%s"}%s\n' "$name" "$status" "$rc" \
      "$dt" "$(esc "$log")" "$([[ $i -lt $((${#results[@]} - 1)) ]] && echo ,)"
  done
  printf '  ],\n  "failed": ['
  for i in "${!failed[@]}"; do printf '%s"%s"' "$([[ $i -gt 0 ]] && echo ', ')" "$(esc "${failed[$i]}")"; done
  printf '],\n  "bench_rows": "%s",\n  "msm_phases": "%s",\n  "proof_phases": "%s",\n  "abtest_results": "%s"\n}\n' \
    "$OUT/bench.jsonl" "$OUT/msm_phases.txt" "$OUT/proof_phases.txt" "$OUT/abtest/results.db"
} >"$OUT/summary.json"

echo
echo "MSM phases, kernel seconds (first_run = the first device run's kernels, tuned = this build's; ratio = first_run / tuned):"
cat "$OUT/msm_phases.txt"
grep -h '"kind": *"field"' "$OUT/msm_phases.jsonl" 2>/dev/null | sed 's/^/field: /'
echo
cat "$OUT/proof_phases.txt"
if [[ -s "$OUT/abtest_verdicts.txt" ]]; then
  echo
  echo "abtest (the bundle's runner; where abtest is: abtest import $OUT/abtest):"
  cat "$OUT/abtest_verdicts.txt"
fi
echo
echo "summary: $OUT/summary.json (${#results[@]} stages in $((SECONDS - start)) s)"
if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all stages passed"
