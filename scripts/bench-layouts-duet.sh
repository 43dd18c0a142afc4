#!/usr/bin/env bash
# Measures what --layouts and --duet (design §6) do on real programs here, with the commands
# printed beside each figure:
#   1. duet: the CI half-width of `synth` (one thread) with --duet against the sequential RMIT
#      run (10 rounds against 16 duet rounds, about the same wall time here), P pairs of runs taken
#      alternately so the host's load hits both alike; also the ratio at equal wall time, each
#      half-width scaled by the square root of its wall time (a half-width falls as 1/sqrt(rounds));
#   2. layouts: on the planted fixture's LAYOUT toggle (the hot loop moved 48 bytes, nothing else),
#      how often a plain run calls planted.total_s SLOWER/FASTER and how often with --layouts,
#      over N seeded runs each;
#   3. A/A duets on the planted fixture: an `env` toggle nothing reads (the same program, measured
#      as two), N duet runs and N sequential ones, how often planted.total_s is called SLOWER/FASTER;
#   4. what each adds to a run's wall time (the wall column of each run).
#
# Usage: scripts/bench-layouts-duet.sh [--pairs P] [--runs N] [--skip-duet] [--skip-layouts] [--skip-aa]
# Env: ABTEST_BIN (default build/ci/harness/abtest), OUT (default a temporary folder; kept).
# Needs python3, lld; builds base and A2 of the pipeline (tiny preset) and the planted fixture.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
abtest="$(readlink -f "${ABTEST_BIN:-$root/build/ci/harness/abtest}")"  # absolute: the script changes folders
pairs=3 runs=10 duet=1 layouts=1 aa=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --pairs) pairs="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --skip-duet) duet=0; shift ;;
    --skip-layouts) layouts=0; shift ;;
    --skip-aa) aa=0; shift ;;
    *) echo "usage: $0 [--pairs P] [--runs N] [--skip-duet] [--skip-layouts] [--skip-aa]" >&2; exit 2 ;;
  esac
done
[[ -x "$abtest" ]] || { echo "error: no abtest at $abtest — build it (cmake --build --preset ci) or set ABTEST_BIN" >&2; exit 2; }
out="${OUT:-$(mktemp -d /tmp/abtest-layouts-duet.XXXXXX)}"
mkdir -p "$out"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"

# One run: prints "<wall s> <ratio> <ci_low> <ci_high> <verdict>" of METRIC for VARIANT, the JSON kept.
measure() {
  local name="$1" variant="$2" metric="$3"; shift 3
  local start end
  start=$(date +%s.%N)
  "$@" --json > "$out/$name.json" 2> "$out/$name.err" || true
  end=$(date +%s.%N)
  python3 - "$out/$name.json" "$variant" "$metric" "$start" "$end" <<'PY'
import json, sys
path, variant, metric, start, end = sys.argv[1:]
try:
    doc = json.load(open(path))
except Exception as e:
    print(f"{float(end) - float(start):.1f} nan nan nan error:{e}")
    sys.exit(0)
rows = [v for v in doc.get("verdicts", []) if v.get("variant") == variant and v.get("metric") == metric]
v = rows[0] if rows else {}
nan = float("nan")
get = lambda k: v.get(k) if v.get(k) is not None else nan
print(f"{float(end) - float(start):.1f} {get('ratio'):.4f} {get('ci_low'):.4f} {get('ci_high'):.4f} {v.get('verdict', 'none')}")
PY
}

# A fresh copy of the planted fixture at $1, without its state folder.
fresh_fixture() {
  rm -rf "$1"
  cp -r "$root/tests/fixtures/planted" "$1"
  rm -rf "$1/.abtest"
}

# N seeded runs of `abtest run --toggle TOGGLE --bench planted` in each of two modes, alternately;
# appends each run to TSV and prints how often each mode called planted.total_s SLOWER/FASTER.
#   alternate TSV TOGGLE LABEL_A "ARGS A" LABEL_B "ARGS B"
alternate() {
  local tsv="$1" toggle="$2" label_a="$3" args_a="$4" label_b="$5" args_b="$6"
  local calls_a=0 calls_b=0 i label args wall ratio lo hi verdict
  for ((i = 1; i <= runs; ++i)); do
    for label in "$label_a" "$label_b"; do
      if [[ $label == "$label_a" ]]; then args=$args_a; else args=$args_b; fi
      # shellcheck disable=SC2086  # the mode's flags split into words on purpose
      read -r wall ratio lo hi verdict < <(measure "$label-$i" "$toggle" planted.total_s "$abtest" run --toggle "$toggle" \
        --bench planted $args --seed "$i")
      echo "$label $i $wall $ratio $lo $hi $verdict" | tee -a "$tsv"
      [[ $verdict == slower || $verdict == faster ]] || continue
      if [[ $label == "$label_a" ]]; then calls_a=$((calls_a + 1)); else calls_b=$((calls_b + 1)); fi
    done
  done
  echo "called SLOWER/FASTER: $label_a $calls_a/$runs ($args_a), $label_b $calls_b/$runs ($args_b)"
  echo "command: $abtest run --toggle $toggle --bench planted --seed I  with $args_a | $args_b"
}

echo "# bench-layouts-duet $(date -u +%FT%TZ) · $(nproc) CPUs · load $(cut -d' ' -f1-3 /proc/loadavg) · out $out"

if [[ $duet == 1 ]]; then
  cd "$root"
  echo "## duet vs sequential: synth, A2 against base, preset tiny"
  "$abtest" build --toggle A2 --bench synth -q >/dev/null
  "$abtest" build --bench synth -q >/dev/null
  printf "%-10s %4s %8s %8s %19s %8s %s\n" run pair wall_s ratio ci half_width verdict
  for ((p = 1; p <= pairs; ++p)); do
    for mode in sequential duet; do
      if [[ $mode == sequential ]]; then rounds=10 extra=(); else rounds=16 extra=(--duet); fi
      read -r wall ratio lo hi verdict < <(measure "$mode-$p" A2 synth.synthesis_s "$abtest" run --toggle A2 --bench synth \
        --param preset=tiny --rounds "$rounds" --seed "$p" "${extra[@]}")
      half=$(python3 -c "import math; print(f'{(math.log($hi) - math.log($lo)) / 2:.5f}')")
      echo "$mode $p $wall $ratio $lo $hi $half $verdict" >> "$out/duet.tsv"
      printf "%-10s %4s %8s %8s  [%7s, %7s] %8s %s\n" "$mode" "$p" "$wall" "$ratio" "$lo" "$hi" "$half" "$verdict"
    done
  done
  python3 - "$out/duet.tsv" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
h = {m: [float(r[6]) for r in rows if r[0] == m] for m in ("sequential", "duet")}
w = {m: [float(r[2]) for r in rows if r[0] == m] for m in ("sequential", "duet")}
print(f"mean half-width (ln): sequential {st.mean(h['sequential']):.5f}, duet {st.mean(h['duet']):.5f}; "
      f"ratio duet/sequential {st.mean(h['duet']) / st.mean(h['sequential']):.3f} (goal <= 0.5)")
print(f"mean wall s: sequential {st.mean(w['sequential']):.1f} (10 rounds), duet {st.mean(w['duet']):.1f} (16 rounds)")
eq = st.mean(h['duet']) / st.mean(h['sequential']) * (st.mean(w['duet']) / st.mean(w['sequential'])) ** 0.5
print(f"at equal wall time (half-width x sqrt(wall)): duet/sequential {eq:.3f} (goal <= 0.5)")
PY
  echo "command: $abtest run --toggle A2 --bench synth --param preset=tiny --rounds 10 | --rounds 16 --duet"
fi

if [[ $layouts == 1 ]]; then
  echo "## layouts: planted fixture, LAYOUT (hot loop moved 48 bytes), planted.total_s"
  fixture="$out/planted"
  fresh_fixture "$fixture"
  cd "$fixture"
  "$abtest" build --toggle LAYOUT -q >/dev/null
  "$abtest" build -q >/dev/null
  alternate "$out/layouts.tsv" LAYOUT plain "--rounds 20" layouts "--rounds 4 --layouts 5"
fi

if [[ $aa == 1 ]]; then
  echo "## A/A on the planted fixture: env toggle UNUSED (read by nothing), planted.total_s"
  fixture="$out/planted-aa"
  fresh_fixture "$fixture"
  python3 - "$fixture/abtest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["toggles"].append({"id": "UNUSED", "env": "ABTEST_UNUSED_KNOB", "levels": ["0", "1"], "title": "read by nothing: A/A"})
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
  cd "$fixture"
  "$abtest" build -q >/dev/null
  alternate "$out/aa.tsv" UNUSED sequential "--rounds 10" duet "--rounds 20 --duet"
  python3 - "$out/aa.tsv" <<'PY'
import math, sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
h = {m: [(math.log(float(r[5])) - math.log(float(r[4]))) / 2 for r in rows if r[0] == m and r[4] != "nan"] for m in ("sequential", "duet")}
if h["sequential"] and h["duet"]:
    print(f"mean half-width (ln): sequential {st.mean(h['sequential']):.4f}, duet {st.mean(h['duet']):.4f}; "
          f"ratio {st.mean(h['duet']) / st.mean(h['sequential']):.3f}")
PY
fi
