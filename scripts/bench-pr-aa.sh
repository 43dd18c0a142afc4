#!/usr/bin/env bash
# The pull-request gate's false alerts and wall time over A/A pull requests (design §9.2): N
# pull requests that cannot change speed, each gated by `abtest pr` with the confirmation rerun and
# with --no-confirm. Two kinds:
#   binary — a string the program never reads, kept in the binary (__attribute__((used))): the
#            programs differ, so the timing path runs; any SLOWER/FASTER reported is a false alert;
#   same   — a notes file no benchmark reads: the programs are identical, nothing is timed.
# One line per gate (kind, PR, mode, exit, wall, timed benchmarks, reported changes, unconfirmed,
# rounds), then per kind and mode: PRs, PRs with a false alert (a SLOWER/FASTER reported), PRs whose
# first experiment read a move (what the same gates would have reported without the rerun: a paired
# count beside the separate --no-confirm gates), and the wall time.
#
# Usage: scripts/bench-pr-aa.sh [--prs N] [--out DIR] [--budget-s S] [--rounds N] [--bench NAME]...
#                               [--project GIT_DIR --manifest FILE --touch SOURCE]
#   --prs N        A/A pull requests of each kind (default 20)
#   --out DIR      where the repository, the database, the comments and the log go (default: /tmp/…)
#   --budget-s S   each gate's --budget-s (default 120)
#   --rounds N     each gate's --rounds: N fixed rounds and a paired t CI instead of adaptive rounds
#                  (whose always-valid CI is wider: fewer false alerts to cut, at more rounds)
#   --bench NAME   only this benchmark (repeatable; default: all of the manifest's)
#   --project DIR  instead of the planted fixture: a git repository (cloned, never changed), with
#                  --manifest FILE, its abtest.json (committed at the clone's top), and --touch SOURCE,
#                  a C or C++ file of the clone that every benchmark program compiles in
# ABTEST_BIN: an abtest binary already built (default: ./abtest, which builds the harness).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
prs=20 out="" budget=120 project="" manifest="" touch="" benches=() rounds=()
while (($#)); do
  case "$1" in
    --prs) prs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --budget-s) budget="$2"; shift 2 ;;
    --bench) benches+=(--bench "$2"); shift 2 ;;
    --rounds) rounds=(--rounds "$2"); shift 2 ;;
    --project) project="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --touch) touch="$2"; shift 2 ;;
    *) echo "error: unknown argument $1 — see the usage at the top of $0" >&2; exit 2 ;;
  esac
done
if [[ -n "$project" && ( -z "$manifest" || -z "$touch" ) ]]; then
  echo "error: --project needs --manifest FILE and --touch SOURCE — see the usage at the top of $0" >&2
  exit 2
fi
out="${out:-$(mktemp -d /tmp/abtest-pr-aa.XXXXXX)}"
mkdir -p "$out"
abtest="${ABTEST_BIN:-$root/abtest}"
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
export GIT_AUTHOR_NAME=abtest GIT_AUTHOR_EMAIL=abtest@example.org GIT_COMMITTER_NAME=abtest GIT_COMMITTER_EMAIL=abtest@example.org
unset GITHUB_STEP_SUMMARY GITHUB_HEAD_REF

repo="$out/repo"
rm -rf "$repo"
if [[ -n "$project" ]]; then
  git clone -q --no-hardlinks "$project" "$repo"
  git -C "$repo" checkout -q -B main
  cp "$manifest" "$repo/abtest.json"
  touch_file="$touch"
else
  mkdir -p "$repo"
  cp -r "$root/tests/fixtures/planted/." "$repo/"
  git -C "$repo" init -q -b main
  touch_file="src/work.cpp"
fi
printf '.abtest/\n' >>"$repo/.gitignore"
git -C "$repo" add -A
git -C "$repo" commit -q -m "A/A base"

log="$out/gates.tsv"
printf 'kind\tpr\tmode\texit\twall_s\ttimed\treported\tunconfirmed\trounds_first\trounds_confirm\n' >"$log"
echo "bench-pr-aa: $prs A/A pull requests of each kind in $repo, budget ${budget} s each${rounds[1]:+, ${rounds[1]} fixed rounds}; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# gate KIND PR MODE [FLAGS…]: one `abtest pr` of the checked-out branch against main, a line in the log.
gate() {
  local kind="$1" pr="$2" mode="$3"; shift 3
  local json="$out/$kind-$pr-$mode.json" rc=0
  (cd "$repo" && "$abtest" --json -q --db "$out/results.db" pr --base main --budget-s "$budget" -j 2 "${benches[@]}" "${rounds[@]}" \
     --comment "$out/$kind-$pr-$mode.md" "$@" >"$json" 2>"$out/$kind-$pr-$mode.err") || rc=$?
  if ((rc > 1)); then
    echo "error: abtest pr exited $rc on $kind PR $pr ($mode) — see $out/$kind-$pr-$mode.err" >&2
    exit "$rc"
  fi
  jq -r --arg kind "$kind" --arg pr "$pr" --arg mode "$mode" --arg rc "$rc" \
    '[$kind, $pr, $mode, $rc, (.wall_s * 10 | round / 10), ([.benchmarks[] | select(.timed)] | length),
      (.regressions + .improvements), .unconfirmed, (.first.rounds // 0), (.confirmation.rounds // 0)] | @tsv' \
    "$json" >>"$log"
  tail -n 1 "$log" >&2
}

for ((i = 1; i <= prs; i++)); do
  git -C "$repo" checkout -q -B "aa-binary-$i" main
  printf '\n__attribute__((used)) static const char abtest_aa_note_%d[] = "A/A pull request %d";\n' "$i" "$i" >>"$repo/$touch_file"
  git -C "$repo" commit -q -am "A/A: a string no code reads ($i)"
  gate binary "$i" confirm
  gate binary "$i" no-confirm --no-confirm

  git -C "$repo" checkout -q -B "aa-same-$i" main
  printf 'note %d\n' "$i" >>"$repo/ABTEST_AA_NOTES.txt"
  git -C "$repo" add -f ABTEST_AA_NOTES.txt  # -f: a project may ignore *.txt
  git -C "$repo" commit -q -m "A/A: notes only ($i)"
  gate same "$i" confirm
done

echo >&2
echo "kind    mode        PRs  false alerts  first moved  wall_s mean  median  max   (load $(cut -d' ' -f1-3 /proc/loadavg))"
for key in "binary confirm" "binary no-confirm" "same confirm"; do
  set -- $key
  # Sorted by wall time, so the median is the middle line (mawk has no sort of its own).
  awk -F'\t' -v kind="$1" -v mode="$2" 'NR > 1 && $1 == kind && $3 == mode' "$log" | sort -t$'\t' -k5,5g |
    awk -F'\t' -v kind="$1" -v mode="$2" '{ n++; alerts += ($7 > 0); moved += ($7 + $8 > 0); sum += $5; w[n] = $5 }
      END {
        if (!n) exit
        med = n % 2 ? w[(n + 1) / 2] : (w[n / 2] + w[n / 2 + 1]) / 2
        printf "%-7s %-11s %3d  %12d  %11d  %11.1f  %6.1f  %5.1f\n", kind, mode, n, alerts, moved, sum / n, med, w[n] }'
done
echo "the gates, one per line: $log"
