#!/usr/bin/env bash
# Lists the longest functions under the given folders (default harness/commands), with their lines,
# to keep the house's "short functions" honest (STYLE.md; design §2). Needs universal-ctags (Debian
# `universal-ctags`). Lambdas passed to a registrar count as the function that holds them.
# Usage: scripts/function-lengths.sh [-n N] [DIR...]      N: how many to list (default 15)
set -euo pipefail
n=15
if [[ "${1:-}" == "-n" ]]; then n="$2"; shift 2; fi
(($# > 0)) || set -- harness/commands
command -v ctags >/dev/null || { echo "error: ctags not found — apt-get install universal-ctags" >&2; exit 2; }
find "$@" -name '*.cpp' -print0 | xargs -0 ctags --languages=C++ --c++-kinds=f --fields=+ne -o - |
  awk -F'\t' '{
      line = ""; end = ""
      for (i = 4; i <= NF; ++i) { if ($i ~ /^line:/) line = substr($i, 6); if ($i ~ /^end:/) end = substr($i, 5) }
      if (line != "" && end != "" && $0 !~ /\tfunction:/) printf "%d\t%s:%s\t%s\n", end - line + 1, $2, line, $1
    }' | sort -rn | head -n "$n"
