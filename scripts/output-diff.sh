#!/usr/bin/env bash
# Every command's terminal and --json output from two abtest programs, diffed: one output path must
# change only what it means to (design §9).
#
#   scripts/output-diff.sh OLD_ABTEST NEW_ABTEST [WORK_DIR]
#
# Each program gets its own fresh copy of the planted fixture (a git repository with a `flip` branch
# `slow` whose work.cpp does three times the work, for `pr` and `check`) and its own database, and runs the
# same commands with the same seeds: run, matrix, bisect and noise-floor on scenarios
# (tests/scenarios, --simulate: deterministic numbers), one real `run` on the planted fixture, then
# the readers (show, history, list, compare, query, alerts, report in md/json/html) on what those
# stored, and pr, check, init, db. Each command's stdout and exit status land in
# WORK_DIR/{old,new}/out/<name>.{txt,json}; ids, timestamps, paths, shas and durations are masked,
# and so is every number of the commands that really measure (run-planted, pr, check, bisect --commits): their
# timings differ from one run to the next, and at 3 rounds on a shared host even a verdict or a
# confirmation may: their diff is printed for reading (WORK_DIR/{old,new}/measured) and not counted.
# Exit 0 when the deterministic outputs are the same, 1 otherwise (the diff on stdout). Running OLD
# against itself must give no counted diff.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: scripts/output-diff.sh OLD_ABTEST NEW_ABTEST [WORK_DIR]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
old="$(realpath "$1")"
new="$(realpath "$2")"
work="${3:-$(mktemp -d /tmp/abtest-output-diff.XXXXXX)}"
mkdir -p "$work"
work="$(realpath "$work")"
scenarios="$root/tests/scenarios"

# A fresh planted fixture as a git repository: main, and `slow` with three times the work.
make_fixture() {
  local dir="$1"
  rm -rf "$dir"
  cp -r "$root/tests/fixtures/planted" "$dir"
  (
    cd "$dir"
    export GIT_AUTHOR_NAME=abtest GIT_AUTHOR_EMAIL=abtest@example.org GIT_COMMITTER_NAME=abtest GIT_COMMITTER_EMAIL=abtest@example.org
    export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
    git init -q -b main
    printf '.abtest/\n' >.gitignore
    git add -A
    git commit -q -m "the planted fixture"
    git checkout -q -b slow
    sed -i 's/std::uint64_t percent = 100;/std::uint64_t percent = 300;/' src/work.cpp
    git commit -q -am "three times the work"
    git checkout -q main
  )
}

# capture BIN OUT NAME ARGS...: BIN's stdout to OUT/NAME, its exit status appended as a last line.
capture() {
  local bin="$1" out="$2" name="$3"
  shift 3
  local rc=0
  "$bin" "$@" >"$out/$name" 2>"$out/$name.stderr" || rc=$?
  printf '[exit %s]\n' "$rc" >>"$out/$name"
}

# both BIN OUT NAME ARGS...: the command with --json (NAME.json) and without (NAME.txt).
both() {
  local bin="$1" out="$2" name="$3"
  shift 3
  capture "$bin" "$out" "$name.json" --json "$@"
  capture "$bin" "$out" "$name.txt" "$@"
}

# newest BIN DB KIND: the id of the newest experiment of KIND that is not a step of a bisection.
newest() {
  "$1" --db "$2" query --format csv "SELECT id FROM experiment WHERE kind = '$3' AND json_extract(config, '$.parent') IS NULL ORDER BY rowid DESC LIMIT 1" | sed -n 2p
}

outputs() {
  local bin="$1" dir="$2"
  local out="$dir/out" fx="$dir/planted" sim="$dir/sim.db" real="$dir/real.db"
  rm -rf "$dir"
  mkdir -p "$out"
  make_fixture "$fx"
  local m=(--manifest "$fx/abtest.json")
  # Scenarios: deterministic numbers for a given seed.
  both "$bin" "$out" run-sim --db "$sim" run --simulate "$scenarios/one_culprit.json" -t A4 --rounds 10 --seed 7
  both "$bin" "$out" matrix-sim --db "$sim" matrix --simulate "$scenarios/interaction.json" --rounds 6 --seed 7
  both "$bin" "$out" bisect-sim --db "$sim" bisect --simulate "$scenarios/one_culprit.json" --seed 7
  both "$bin" "$out" noise-floor-sim --db "$sim" noise-floor --simulate "$scenarios/one_culprit.json" --rounds 6 --seed 7
  # The readers, on what the scenarios stored.
  both "$bin" "$out" list --db "$sim" list --limit 0
  both "$bin" "$out" show --db "$sim" show
  local kind id
  for kind in run matrix bisect; do  # the newest of each kind (a bisection's: its search, not a step)
    id="$(newest "$bin" "$sim" "$kind")"
    both "$bin" "$out" "show-$kind" --db "$sim" show "$id"
    capture "$bin" "$out" "report-$kind.md" --db "$sim" report "$id" --format md
    capture "$bin" "$out" "report-$kind.json" --db "$sim" report "$id" --format json
  done
  both "$bin" "$out" history --db "$sim" history
  both "$bin" "$out" compare --db "$sim" compare
  both "$bin" "$out" alerts --db "$sim" alerts --all
  both "$bin" "$out" query --db "$sim" query "SELECT variant, baseline, metric, verdict FROM v_latest_verdict ORDER BY variant, baseline, metric"
  capture "$bin" "$out" report.md --db "$sim" report --format md
  capture "$bin" "$out" report.json --db "$sim" report --format json
  capture "$bin" "$out" report.html --db "$sim" report --format html
  both "$bin" "$out" db-check --db "$sim" db check
  # The planted fixture, built and run for real: a run, its show, the PR gate and check on `flip`.
  both "$bin" "$out" run-planted "${m[@]}" --db "$real" run --bench planted -t SLOW --rounds 3 --seed 11 -j 2
  both "$bin" "$out" show-planted "${m[@]}" --db "$real" show
  (cd "$fx" && git checkout -q slow)
  (cd "$fx" && both "$bin" "$out" pr --db "$real" pr --base main --bench planted --rounds 3 --seed 5 -j 2 --comment "$dir/pr.md")
  both "$bin" "$out" alerts-planted --db "$real" alerts
  capture "$bin" "$out" alerts-planted-ack.txt --db "$real" alerts ack 1 --note "seen"
  capture "$bin" "$out" alerts-planted-invalid.json --json --db "$real" alerts invalid 1 --note "not a regression"
  cp "$dir/pr.md" "$out/pr-comment.md" 2>/dev/null || true
  (cd "$fx" && both "$bin" "$out" check --db "$real" check --against main --metric planted.total_s --rounds 3 --seed 5 -j 2)
  # The commit that tripled the work, by the deterministic work count.
  both "$bin" "$out" bisect-commits "${m[@]}" --db "$real" bisect --commits main..slow --metric planted.work_count --rounds 3 --seed 5 -j 2
  (cd "$fx" && git checkout -q main)
  # init on a copy without a manifest.
  local bare="$dir/bare"
  cp -r "$root/tests/fixtures/planted" "$bare" && rm "$bare/abtest.json"
  (cd "$bare" && capture "$bin" "$out" init.txt init)
  rm -f "$bare/abtest.json"
  (cd "$bare" && capture "$bin" "$out" init.json --json init)
  [[ -f "$bare/abtest.json" ]] && cp "$bare/abtest.json" "$out/init-manifest.json"
  return 0
}

# What differs from one run to the next: ids, times, paths (the program's own too: a command line
# is recorded with each experiment), shas, durations; and, in the outputs of real measurements,
# every number.
mask() {
  local dir="$1" bin="$2"
  for f in "$dir"/out/*; do
    [[ "$f" == *.stderr ]] && continue
    sed -E -i \
      -e "s#$dir#DIR#g" -e "s#$bin#ABTEST#g" \
      -e 's/\b[a-z]{1,3}-[0-9]{8}-[0-9]{6}-[0-9a-f]{4,8}\b/ID/g' \
      -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?Z?/TIME/g' \
      -e 's/\b[0-9a-f]{40}\b/SHA/g; s/\b[0-9a-f]{12}\b/SHA/g' \
      -e 's/("(wall_s|run_seconds|seconds|duration_s|build_s|run_s|elapsed_s)": )[0-9.e+-]+/\1N/g' \
      -e 's/"pid": [0-9]+/"pid": N/g; s/"host": "[^"]*"/"host": "HOST"/g' \
      "$f"
    case "$(basename "$f")" in
      run-planted.* | show-planted.* | pr.* | pr-comment.md | check.* | alerts-planted* | bisect-commits.*)
        # Timings, and the notes and column widths that follow from them.
        sed -E -i -e '/note/d' -e 's/[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/N/g' -e 's/ +/ /g' "$f" ;;
    esac
  done
}

outputs "$old" "$work/old"
outputs "$new" "$work/new"
mask "$work/old" "$old"
mask "$work/new" "$new"
# The measured outputs move with the machine's noise (a verdict at 3 rounds, whether a rerun
# confirms): shown for reading, not counted.
measured='run-planted.*|show-planted.*|pr.*|pr-comment.md|check.*|alerts-planted*|bisect-commits.*'
for side in old new; do
  mkdir -p "$work/$side/measured"
  for f in "$work/$side"/out/*; do
    case "$(basename "$f")" in run-planted.* | show-planted.* | pr.* | pr-comment.md | check.* | alerts-planted* | bisect-commits.*) mv "$f" "$work/$side/measured/" ;; esac
  done
done
echo "== measured outputs ($measured; numbers masked, timings differ run to run — read, not counted)"
diff -ru --exclude='*.stderr' "$work/old/measured" "$work/new/measured" || true
echo "== deterministic outputs"
if diff -ru --exclude='*.stderr' "$work/old/out" "$work/new/out"; then
  echo "no difference: $work/old/out and $work/new/out"
else
  exit 1
fi
