#!/usr/bin/env bash
# Checks that the front door tells the truth: README's Layout lists exactly the folders the tree has
# (top level and harness/), every `design §n` cited anywhere resolves to a heading of docs/design.md,
# every relative link in README.md and docs/*.md points at a file that exists, and nothing cites an
# `issue #N` (the tracker is not in the repository: a comment says what it means or cites design §n).
# Usage: readme_layout_test.sh [REPO_ROOT]
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root" || exit 2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The Layout block: the fenced block after "## Layout". Top-level entries start in column 0 with
# "name/", harness's sub-folders are indented by two spaces.
layout=$(awk '/^## Layout/{s=1; next} s && /^```/{n++; if (n == 2) exit; next} s && n == 1' README.md)
[[ -n "$layout" ]] || { echo "FAIL: README.md has no fenced block under '## Layout'"; exit 1; }
listed_top=$(sed -n 's#^\([A-Za-z0-9_.-]*\)/ .*#\1#p' <<<"$layout" | sort -u)
listed_harness=$(sed -n 's#^  \([A-Za-z0-9_.-]*\)/ .*#\1#p' <<<"$layout" | sort -u)

# Folders of the tree: build output, hidden folders and installed test oracles are not the project's.
actual_top=$(find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name build ! -name node_modules -printf '%f\n' | sort -u)
actual_harness=$(find harness -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -u)

compare() {  # what, listed, actual
  local missing extra
  missing=$(comm -13 <(echo "$2") <(echo "$3"))
  extra=$(comm -23 <(echo "$2") <(echo "$3"))
  [[ -z "$missing" ]] || fail "$1 not in README's Layout: $(echo $missing) — add a line saying what it holds"
  [[ -z "$extra" ]] || fail "README's Layout names $1 that do not exist: $(echo $extra)"
}
compare "top-level folders" "$listed_top" "$actual_top"
compare "harness/ folders" "$listed_harness" "$actual_harness"

# Every `design §n` or `design §n.m` cited resolves to "## n." or "### n.m" in docs/design.md.
headings=$(sed -n 's/^##* \([0-9][0-9.]*\) .*/\1/p' docs/design.md | sed 's/\.$//' | sort -u)
cited=$(grep -rhoE 'design §[0-9]+(\.[0-9]+)?' --include='*.cpp' --include='*.hpp' --include='*.cu' \
          --include='*.cuh' --include='*.h' --include='*.md' --include='*.sh' --include='*.cmake' \
          --include='CMakeLists.txt' --include='*.json' --include='*.py' \
          --exclude-dir=build --exclude-dir=node_modules --exclude-dir='.[a-z]*' . | sed 's/design §//' | sort -u)
for n in $cited; do
  grep -qx "$n" <<<"$headings" || fail "design §$n is cited ($(grep -rlE "design §$n([^.0-9]|$)" \
    --exclude-dir=build --exclude-dir=node_modules --exclude-dir='.[a-z]*' . | head -3 | tr '\n' ' ')) but docs/design.md has no heading $n"
done

# Relative links in the front door and the docs.
for doc in README.md docs/*.md; do
  dir=$(dirname "$doc")
  while IFS= read -r target; do
    target=${target%%#*}
    [[ -z "$target" || "$target" == http* || "$target" == mailto:* ]] && continue
    [[ -e "$dir/$target" ]] || fail "$doc links to $target, which does not exist"
  done < <(grep -oE '\]\([^)]+\)' "$doc" | sed 's/^](\(.*\))$/\1/')
done

# No `issue #N` tags: this file's own pattern is built so that it does not match itself.
tag='issue'' #[0-9]'
tagged=$(grep -rliE "$tag" --exclude-dir=build --exclude-dir=node_modules --exclude-dir='.[a-z]*' . | head -5)
[[ -z "$tagged" ]] || fail "'issue #N' tags in: $(echo $tagged) — say what it meant, or cite the design § that describes it"

cited_count=$(wc -w <<<"$cited")
if ((failures)); then echo "$failures problem(s)"; exit 1; fi
echo "README layout matches the tree ($(wc -l <<<"$actual_top") top-level, $(wc -l <<<"$actual_harness") harness folders); $cited_count design sections cited, all resolve; links resolve; no issue tags"
