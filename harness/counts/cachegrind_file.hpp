// Parser of cachegrind's (and callgrind's) output file into totals and per-function counts.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/counts/count_set.hpp"

namespace abtest::counts {

// What a cachegrind output file holds, summed per function.
struct cachegrind_profile {
  std::vector<std::string> events;             // from the `events:` line, in file order
  std::map<std::string, count> totals;         // the `summary:` line, plus derived LLmr / LLmw
  // Every function with a self cost, with all its events (zeros too).
  std::map<std::string, function_counts> functions;
  std::string cache_config;                    // the `desc: … cache:` lines joined by "; "
  std::string command;                         // the `cmd:` line
  std::string error;                           // empty on success: `<what> — <what to do>`
};

// Reads the format written by Valgrind's cachegrind (and cg_merge / cg_diff):
//
//   desc: I1 cache:         32768 B, 64 B, 8-way associative
//   cmd: ./prog 100
//   events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim
//   fl=prog.cpp
//   fn=main
//   12 6004 0 0 1001 0 0 1001 0 0 1000 10 0 0      (line number, then one count per event)
//   summary: 1770846 1400 1358 445236 …
//
// A count line may carry fewer counts than events (the rest are 0). `fi=` / `fe=` switch the file
// of inlined code without changing the function. Blank lines and `#` comments are skipped.
//
// Callgrind's format (callgrind_format(5), `positions: line`) is read too, for self costs: names
// compressed as `fn=(3) name` (defines id 3) and `fn=(3)` (refers to it), also in cfn= / cfi= /
// cfl= / ob= / cob=; relative positions `+2`, `-1`, `*`; and the count line after each `calls=`
// line, which is the call's inclusive cost and is skipped (the callee's own lines hold it).
//
// The self counts must add up to the `summary:` (or `totals:`) line; a file where they do not, or
// without one, is an error, as cg_annotate treats it. Never throws.
cachegrind_profile parse_cachegrind(std::string_view text);

}  // namespace abtest::counts
