#!/usr/bin/env bash
# What variant builds cost (issue #13): on a fresh clone with a fresh .abtest/ and a cold compiler
# cache, then again with the cache warm —
#   1. one clean build of base;  2. after it, a one-toggle variant for each toggle;
#   3. the 16-variant half fraction from nothing;  4. the full matrix (every level) from nothing.
# Each line gives wall seconds, and the objects compiled / cache hits / links the build records say.
#
# Usage: scripts/bench-builds.sh [--out DIR] [--skip-full] [--jobs N]
#   --out DIR     where the clone, the caches and the log go (default: a new folder under /tmp)
#   --skip-full   leave out the full matrix (64 variants for this repository's manifest)
# Run it on a quiet machine: the figures are wall times.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
out="" skip_full=0 jobs=2
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --skip-full) skip_full=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "error: unknown argument $1 — see the usage at the top of $0" >&2; exit 2 ;;
  esac
done
out="${out:-$(mktemp -d /tmp/abtest-bench-builds.XXXXXX)}"
mkdir -p "$out"
abtest="$root/abtest"
"$abtest" --help >/dev/null  # builds the harness first, outside the timings
src="$out/src"
rm -rf "$src"
git clone -q --no-hardlinks "$root" "$src"
# The working tree as it is, uncommitted edits included, so the figures are of this code.
(cd "$root" && git diff HEAD) | (cd "$src" && git apply --allow-empty)
manifest="$src/abtest.json"
toggles=$(python3 -c "import json,sys; print(' '.join(t['id'] for t in json.load(open('$manifest'))['toggles']))")
log="$out/bench-builds.log"
: >"$log"

# Runs `abtest build ARGS` and prints: label, wall s, and the summed cost of the builds it made.
measure() {
  local label="$1"; shift
  local t0 t1 json
  t0=$(date +%s.%N)
  json=$("$abtest" --manifest "$manifest" --db "$out/results.db" --json build -j "$jobs" "$@" 2>>"$log")
  t1=$(date +%s.%N)
  python3 - "$label" "$t0" "$t1" "$json" <<'PY'
import json, sys
label, t0, t1, text = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
builds = json.loads(text)
total = lambda k: sum(b.get(k) or 0 for b in builds)
failed = [b["variant"] for b in builds if not b["ok"]]
print(f"{label:<34} {t1 - t0:8.1f} s  {len(builds):3d} builds  {total('objects_compiled'):4d} compiled  "
      f"{total('cache_hits'):5d} hits  {total('links'):4d} links" + (f"  FAILED: {' '.join(failed)}" if failed else ""))
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
pass cold
pass warm
