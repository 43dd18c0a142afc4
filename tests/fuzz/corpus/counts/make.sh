#!/usr/bin/env bash
# Makes the seed corpus of fuzz_counts from real Valgrind output (Debian's valgrind): cachegrind,
# callgrind (compressed names, relative positions, calls= lines) and DHAT of a small program. The
# first byte of each seed picks the parser, as fuzz_counts.cpp reads it: 'c' cachegrind, 'd' DHAT.
# Usage: tests/fuzz/corpus/counts/make.sh   (writes beside itself; needs valgrind and a C compiler)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/prog.c" <<'C'
#include <stdlib.h>
static long work(int n) { long s = 0; for (int i = 0; i < n; ++i) s += i % 7; return s; }
char* volatile keep;
int main(void) { for (int i = 0; i < 3; ++i) { keep = malloc(64 << i); keep[0] = 1; free(keep); } long s = work(1000); return (int)(s & 1); }
C
cc -O1 -g -o "$work/prog" "$work/prog.c"
cd "$work"
valgrind -q --tool=cachegrind --cache-sim=yes --cachegrind-out-file=cg.out ./prog || true
valgrind -q --tool=callgrind --callgrind-out-file=callgrind.out ./prog || true
valgrind -q --tool=dhat --dhat-out-file=dhat.out ./prog || true
# The whole cachegrind file is ~100 KB (libc's functions), past fuzz.sh's -max_len: the seed keeps
# only prog.c's functions, with the summary summed again so that it still parses.
python3 - cg.out >"$work/cg-small.out" <<'PY'
import sys
keep, out, sums = False, [], None
for line in open(sys.argv[1]):
    if line.startswith("events:"):
        sums = [0] * len(line.split()[1:])
    if line.startswith("fl="):
        keep = "prog.c" in line
    if line.startswith("summary:"):
        out.append("summary: " + " ".join(map(str, sums)) + "\n")
    elif line[:1].isdigit():
        if keep:
            out.append(line)
            for i, v in enumerate(line.split()[1:]):
                sums[i] += int(v)
    elif keep or not line.startswith(("fn=", "fl=")):
        out.append(line)
sys.stdout.write("".join(out))
PY
{ printf c; cat "$work/cg-small.out"; } >"$here/cachegrind.seed"
{ printf c; cat callgrind.out; } >"$here/callgrind.seed"
{ printf d; cat dhat.out; } >"$here/dhat.seed"
ls -l "$here"/*.seed
