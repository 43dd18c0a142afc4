#!/usr/bin/env bash
# The nightly job: build the current commit, run the variant matrix, detect change points, write the
# reports; exit 1 when a regression is confirmed.
#
# Usage: scripts/nightly.sh [--out DIR] [--db FILE] [--manifest FILE] [--simulate SCENARIO]
#                           [--rounds N] [--shard I/N] [--no-report]
#   --out DIR        where the reports go (default .abtest/nightly/<UTC date>)
#   --simulate FILE  draw samples from a scenario file (DESIGN §12) instead of building and running
#   --shard I/N      run one shard only and skip history and reports (scripts/nightly.slurm merges)
# Environment: ABTEST (the abtest command, default ./abtest beside this script's repository).
#
# Exit codes: 0 no regression; 1 a regression is confirmed: a slower change point still in state
# `new`, or a slower CUSUM alarm on the latest night (`abtest history --fail-on-regression`);
# 2 usage; other codes are abtest's own (3 build failed, 4 benchmark failed).
# A regression is "confirmed" by the statistics of the history; the A/B of the two builds around
# it is what `abtest history --confirm` reports on (best-effort: it needs both build folders).
#
# Crontab (every night at 02:00, on the proving box, from a checkout that a CI job keeps current):
#   0 2 * * *  cd /srv/abtest && git pull -q && scripts/nightly.sh --out /srv/reports/$(date +\%F) >>/var/log/abtest-nightly.log 2>&1
#
# CI (GitHub Actions, on a self-hosted runner labelled `prover`):
#   on: {schedule: [{cron: "0 2 * * *"}]}
#   jobs:
#     nightly:
#       runs-on: [self-hosted, prover]
#       steps:
#         - uses: actions/checkout@v4
#         - run: scripts/nightly.sh --out nightly-report
#         - if: always()
#           uses: actions/upload-artifact@v4
#           with: {name: nightly-report, path: nightly-report}
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
abtest="${ABTEST:-$root/abtest}"
out="" db="" manifest="" simulate="" rounds="" shard="" report=1
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --simulate) simulate="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    --no-report) report=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 — see scripts/nightly.sh --help" >&2; exit 2 ;;
  esac
done
out="${out:-.abtest/nightly/$(date -u +%F)}"
mkdir -p "$out"

global=()
[[ -n "$db" ]] && global+=(--db "$db")
[[ -n "$manifest" ]] && global+=(--manifest "$manifest")
matrix=(matrix --nightly)
[[ -n "$simulate" ]] && matrix+=(--simulate "$simulate")
[[ -n "$rounds" ]] && matrix+=(--rounds "$rounds")
[[ -n "$shard" ]] && matrix+=(--shard "$shard")

echo "nightly: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 'no git') → $out" >&2
# `abtest matrix` builds every variant of the current commit (incrementally, through ccache) and runs them.
status=0
"$abtest" "${global[@]}" -q "${matrix[@]}" || status=$?
if ((status != 0 && status != 1)); then
  echo "error: abtest matrix failed with exit code $status — see the log above" >&2
  exit "$status"
fi
[[ -n "$shard" ]] && exit 0

regression=0
"$abtest" "${global[@]}" --json history --kind nightly --fail-on-regression >"$out/history.json" || regression=$?
if ((regression != 0 && regression != 1)); then
  echo "error: abtest history failed with exit code $regression" >&2
  exit "$regression"
fi
if ((report)); then
  for format in md json html; do
    "$abtest" "${global[@]}" -q report --nightly --format "$format" -o "$out/report.$format"
  done
fi
if ((regression)); then
  echo "nightly: REGRESSION — see $out/report.md" >&2
  exit 1
fi
echo "nightly: no regression — $out/report.md" >&2
