#!/usr/bin/env bash
# What variant builds cost (design §5): on a fresh clone with a fresh .abtest/ and a cold compiler
# cache, then again with the cache warm —
#   1. one clean build of base;  2. after it, a one-toggle variant for each toggle;
#   3. the 16-variant half fraction from nothing;  4. the full matrix (every level) from nothing.
# Each line gives wall seconds, and the objects compiled / cache hits / links the build records say.
#
# Usage: scripts/bench-builds.sh [--out DIR] [--skip-full | --only-full] [--cold-only] [--jobs N]
#   --out DIR     where the clone, the caches and the log go (default: a new folder under /tmp)
#   --skip-full   leave out the full matrix (64 variants for this repository's manifest)
#   --only-full   only one clean build of base and the full matrix, each from a cold cache
#   --cold-only   leave out the second pass (warm cache)
# Run it on a quiet machine: wall times move with the load; CPU seconds much less.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
source "$root/scripts/bench-common.sh"
out="" skip_full=0 only_full=0 cold_only=0 jobs=2
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --skip-full) skip_full=1; shift ;;
    --only-full) only_full=1; shift ;;
    --cold-only) cold_only=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "error: unknown argument $1 — see the usage at the top of $0" >&2; exit 2 ;;
  esac
done
out="${out:-$(mktemp -d /tmp/abtest-bench-builds.XXXXXX)}"
mkdir -p "$out"
abtest="${ABTEST_BIN:-$root/abtest}"  # ABTEST_BIN: an abtest binary already built (e.g. build/ci/harness/abtest)
"$abtest" --help >/dev/null  # builds the harness first, outside the timings
src="$out/src"
bench_clone "$root" "$src"
manifest="$src/abtest.json"
toggles=$(python3 -c "import json,sys; print(' '.join(t['id'] for t in json.load(open('$manifest'))['toggles']))")
log="$out/bench-builds.log"
: >"$log"

# Runs `abtest build ARGS` and prints: label, wall s, CPU s (user + sys of every process the build
# ran: less sensitive than wall time to a busy machine), and the summed cost the builds recorded.
measure() {
  local label="$1"; shift
  local json
  json=$(bench_timed "$out/time.txt" "$abtest" --manifest "$manifest" --db "$out/results.db" --json build -j "$jobs" "$@" 2>>"$log")
  python3 - "$label" "$(cat "$out/time.txt")" "$json" <<'PY'
import json, sys
label, (wall, user, sys_s), text = sys.argv[1], sys.argv[2].split()[-3:], sys.argv[3]
builds = json.loads(text)
total = lambda k: sum(b.get(k) or 0 for b in builds)
failed = [b["variant"] for b in builds if not b["ok"]]
print(f"{label:<34} {float(wall):8.1f} s wall {float(user) + float(sys_s):8.1f} s CPU  {len(builds):3d} builds  "
      f"{total('objects_compiled'):4d} compiled  {total('cache_hits'):5d} hits  {total('links'):4d} links"
      + (f"  FAILED: {' '.join(failed)}" if failed else ""))
PY
}

pass() {  # $1: cold | warm
  local kind="$1"
  echo "== $kind cache"
  rm -rf "$src/.abtest"
  measure "clean build (base)" --variant base
  for t in $toggles; do measure "one toggle after base: $t" --toggle "$t"; done
  rm -rf "$src/.abtest"
  [[ "$kind" == cold ]] && ccache -C >/dev/null
  measure "half fraction, from nothing" --matrix --design half
  if ((!skip_full)); then
    rm -rf "$src/.abtest"
    [[ "$kind" == cold ]] && ccache -C >/dev/null
    measure "full matrix, from nothing" --matrix --design full
  fi
}

export CCACHE_DIR="$out/ccache"
rm -rf "$CCACHE_DIR"
echo "bench-builds: $(nproc) cores, $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ); logs in $log"
if ((only_full)); then
  echo "== cold cache"
  measure "clean build (base)" --variant base
  rm -rf "$src/.abtest"
  ccache -C >/dev/null
  measure "full matrix, from nothing" --matrix --design full
  exit 0
fi
pass cold
((cold_only)) || pass warm
