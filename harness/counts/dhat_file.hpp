// Parser of DHAT's JSON output (dhat.out.<pid>, heap mode) into allocation totals and sites.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/counts/count_set.hpp"

namespace abtest::counts {

struct dhat_profile {
  count blocks = 0, bytes = 0;            // allocated over the whole run (DHAT's "Total:")
  count peak_blocks = 0, peak_bytes = 0;  // live at the heap's global maximum ("At t-gmax:")
  std::vector<alloc_site> sites;          // by bytes, then blocks, descending; then by name
  std::string command;                    // "cmd"
  std::string error;                      // empty on success: `<what> — <what to do>`
};

// Reads DHAT's file format version 2 in heap mode:
//
//   {"dhatFileVersion": 2, "mode": "heap", "cmd": "./prog 100", …,
//    "pps": [{"tb": 1600, "tbk": 100, "gb": 1600, "gbk": 100, …, "fs": [1, 10]}, …],
//    "ftbl": ["[root]", "0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)",
//             …, "0x109162: main (t.cpp:4)"]}
//
// Each program point (`pps`) is one allocation stack: `tb`/`tbk` its total bytes/blocks, `gb`/`gbk`
// those live at the global maximum, `fs` its frames (indices into `ftbl`, innermost first). A
// site is the innermost frame that is not Valgrind's allocator replacement (vgpreload_*), without
// its address and with an object's path cut to its file name ("f() (in synth-bench)"), so that
// the same code in two variant builds names the same site. Never throws.
dhat_profile parse_dhat(std::string_view text);

}  // namespace abtest::counts
