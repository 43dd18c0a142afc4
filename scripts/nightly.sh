#!/usr/bin/env bash
# The nightly job: build the current commit, run the variant matrix, detect change points, write the
# reports; exit 1 when a regression is confirmed.
#
# Usage: scripts/nightly.sh [--out DIR] [--db FILE] [--manifest FILE] [--simulate SCENARIO]
#                           [--rounds N] [--canary REF] [--shard I/N --group ID] [--no-report]
#                           [--history-only] [--seed S]
#   --out DIR        where the reports go (default .abtest/nightly/<UTC date>)
#   --simulate FILE  draw samples from a scenario file (design §12) instead of building and running
#   --canary REF     also run base built at the frozen commit REF (a tag such as abtest-canary) as the
#                    arm `canary`; history divides every series by it, night by night, which cancels
#                    what moves the machine rather than the code (with --simulate: the scenario's
#                    all-off configuration). Default: $ABTEST_CANARY; none when unset.
#   --shard I/N      run one shard only and skip history and reports (scripts/nightly.slurm merges);
#   --group ID       with --shard: the night's id shared by its shards (abtest matrix --analyze --group)
#   --seed S         seed of the matrix's round order (default: random, recorded) — reproducible nights
#   --history-only   run no matrix: history and reports of what the database holds (the Slurm merge job)
# Environment: ABTEST (the abtest command, default ./abtest beside this script's repository).
#
# Exit codes: 0 no regression; 1 a regression is confirmed: a slower change point still in state
# `new`, or a slower CUSUM alarm on the latest night (`abtest history --fail-on-regression`);
# 2 usage; other codes are abtest's own (3 build failed, 4 benchmark failed).
# A regression is found by the statistics of the history and confirmed by `abtest history --confirm`:
# the A/B of the builds on either side of each new change point (rebuilt from their commits when the
# build folders have moved on); a change point the A/B does not find slower does not fail the night.
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
out="" db="" manifest="" simulate="" rounds="" seed="" shard="" group="" canary="${ABTEST_CANARY:-}" report=1 matrix_run=1
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --simulate) simulate="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    --group) group="$2"; shift 2 ;;
    --canary) canary="$2"; shift 2 ;;
    --no-report) report=0; shift ;;
    --history-only) matrix_run=0; shift ;;
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
[[ -n "$seed" ]] && matrix+=(--seed "$seed")
[[ -n "$shard" ]] && matrix+=(--shard "$shard")
[[ -n "$group" ]] && matrix+=(--group "$group")
[[ -n "$canary" ]] && matrix+=(--canary "$canary")

if ((matrix_run)); then
  echo "nightly: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 'no git') → $out" >&2
  # `abtest matrix` builds every variant of the current commit (incrementally, through ccache) and runs them.
  status=0
  "$abtest" "${global[@]}" -q "${matrix[@]}" || status=$?
  if ((status != 0 && status != 1)); then
    echo "error: abtest matrix failed with exit code $status — see the log above" >&2
    exit "$status"
  fi
  [[ -n "$shard" ]] && exit 0
fi

regression=0
"$abtest" "${global[@]}" --json history --kind nightly --confirm --fail-on-regression >"$out/history.json" || regression=$?
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
