#!/usr/bin/env bash
# What the README's main job costs the first time: on a fresh clone with a fresh .abtest/
# and a cold compiler cache, phase by phase —
#   setup (scripts/setup.sh), the harness build (./abtest's first use), the base build, the
#   A1=4+B1 build, and the measurement (`./abtest run … --param preset=tiny --rounds 5`).
# The builds are the ones the run would do (same variants, targets and jobs), run first with
# `abtest build` so that each has its own CPU seconds; the run then finds them up to date, which the
# last lines check from the build records.
#
# Usage: scripts/bench-first-run.sh [--out DIR] [--rounds N]
#   --out DIR    where the clone, the compiler cache and the logs go (default: a new folder in /tmp)
#   --rounds N   the run's rounds (default 5, as in the README)
# The machine may be shared: wall seconds move with its load, CPU seconds (user + sys of every
# process a phase waited for) much less; the load average is printed at the start and the end.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
source "$root/scripts/bench-common.sh"
out="" rounds=5
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "error: unknown argument $1 — see the usage at the top of $0" >&2; exit 2 ;;
  esac
done
out="${out:-$(mktemp -d /tmp/abtest-first-run.XXXXXX)}"
mkdir -p "$out"
src="$out/src"
revision=$(git -C "$root" rev-parse --short HEAD)  # what is cloned
[[ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ]] || revision+="+edits"
bench_clone "$root" "$src"
# As on a machine that never built abtest: a private, empty compiler cache, no launcher settings
# carried in from this shell.
export CCACHE_DIR="$out/ccache"
rm -rf "$CCACHE_DIR"
unset CCACHE_BASEDIR CCACHE_NOHASHDIR ABTEST_HARNESS_BUILD ABTEST_BIN
log="$out/first-run.log"
: >"$log"
cd "$src"

total_wall=0 total_cpu=0
rows=()
# phase LABEL CMD...: runs one phase, its output to the log, and keeps its row for the table.
phase() {
  local label="$1"; shift
  local load_before wall user sys_s
  load_before=$(bench_load)
  echo "== $label: $* (load $load_before)" >>"$log"
  if ! bench_timed "$out/time.txt" "$@" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: phase \"$label\" failed — see $log" >&2
    exit 1
  fi
  read -r wall user sys_s <"$out/time.txt"
  rows+=("$(printf '%-34s %8.1f %8.1f   %s → %s' "$label" "$wall" "$(echo "$user + $sys_s" | bc)" \
           "${load_before%% *}" "$(bench_load | cut -d' ' -f1)")")
  total_wall=$(echo "$total_wall + $wall" | bc)
  total_cpu=$(echo "$total_cpu + $user + $sys_s" | bc)
}

load_start=$(bench_load)
started=$(date -u +%FT%TZ)
phase "setup (scripts/setup.sh)" scripts/setup.sh
phase "harness build (./abtest first use)" ./abtest --help
phase "build base" ./abtest build --variant base
phase "build A1=4+B1" ./abtest build --toggle A1 --toggle B1
phase "measurement (run, $rounds rounds)" \
  ./abtest run --toggle A1 --toggle B1 --param preset=tiny --rounds "$rounds"
load_end=$(bench_load)

echo "bench-first-run: $(nproc) cores, $revision, $started; log $log"
printf '%-34s %8s %8s   %s\n' "phase" "wall s" "CPU s" "load (1 min) start → end"
printf '%s\n' "${rows[@]}"
printf '%-34s %8.1f %8.1f\n' "total" "$total_wall" "$total_cpu"
echo "load average (1, 5, 15 min): $load_start at the start, $load_end at the end"
# What each build compiled, from the build records: the run's own two must have compiled nothing.
./abtest query "SELECT variant, round(duration_s, 1) AS duration_s, objects_compiled, cache_hits, links,
                       substr(json_extract(details, '\$.notes[0]'), 1, 60) AS note FROM build ORDER BY id"
