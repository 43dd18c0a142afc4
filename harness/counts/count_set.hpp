// What one benchmark run under Valgrind counted: cachegrind events, DHAT allocations, per function.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace abtest::counts {

using count = std::uint64_t;

// The counts stored as metrics `<bench>.counts.<name>` (design §6) and compared exactly,
// never mixed with timings:
//   Ir            instructions executed (cachegrind)
//   D1mr          level-1 data cache read misses
//   LLmr          last-level read misses, instruction + data (cachegrind's ILmr + DLmr)
//   Bcm           mispredicted conditional branches
//   alloc_blocks  heap blocks allocated over the whole run (DHAT "Total: … in N blocks")
//   alloc_bytes   heap bytes allocated over the whole run
inline constexpr std::array<std::string_view, 6> headline_counts = {"Ir", "D1mr", "LLmr", "Bcm",
                                                                    "alloc_blocks", "alloc_bytes"};

// One function's cachegrind events, summed over every file its lines come from (code inlined from
// headers is attributed to the function it was inlined into, as cg_annotate shows it).
struct function_counts {
  std::string name;                     // as cachegrind names it (demangled C++)
  std::string file;                     // the file holding most of its Ir; "???" without debug info
  std::map<std::string, count> events;  // "Ir", "D1mr", … and the derived "LLmr", "LLmw"
};

// One allocation site from DHAT: the first stack frame outside Valgrind's allocator replacement,
// without its address ("zk::r1cs::lc::push (lc.cpp:42)"), summed over every stack through it.
struct alloc_site {
  std::string where;
  count blocks = 0;
  count bytes = 0;
};

struct count_set {
  // Every cachegrind event of the run ("Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw",
  // "DLmw", "Bc", "Bcm", "Bi", "Bim"), the derived "LLmr" (ILmr + DLmr) and "LLmw" (DLmw), and
  // from DHAT "alloc_blocks", "alloc_bytes", "alloc_peak_blocks", "alloc_peak_bytes" (live at
  // the heap's global maximum). A count the run did not measure is absent, never zero.
  std::map<std::string, count> totals;
  std::map<std::string, function_counts> functions;  // keyed by function name
  std::vector<alloc_site> alloc_sites;               // by bytes, then blocks, descending
  // What makes counts comparable: the simulated caches ("I1 cache: 32768 B, 64 B, 8-way
  // associative; D1 cache: …"), the Valgrind version and the region counted (a function pattern;
  // empty: the whole program). Counts are comparable only when all three are equal.
  std::string cache_config;
  std::string valgrind_version;
  std::string region;
  std::string command;                               // as Valgrind saw it
};

// The headline counts present in `c`, as metrics named `<bench>.counts.<name>`:
//   to_metrics(c, "synth") → {"synth.counts.Ir": 1.2e9, "synth.counts.D1mr": 3.1e6, …}
// Values stay exact up to 2^53 (doubles), far beyond any benchmark's instruction count.
std::map<std::string, double> to_metrics(const count_set& c, std::string_view bench);

// Lossless JSON form, to keep a run's counts beside its samples and diff them later.
nlohmann::json to_json(const count_set& c);
// The inverse of to_json; throws nlohmann::json::exception on a document of another shape.
count_set count_set_from_json(const nlohmann::json& j);

// Adds "LLmr" = ILmr + DLmr and "LLmw" = DLmw to `events` when the cache events are there.
void add_derived_events(std::map<std::string, count>& events);

// The headline counts present in both sets that moved: what "the counts moved" means to bisect's
// counts screen. The work — Ir, alloc_blocks, alloc_bytes — moves when it differs by more than
// `work_relative` of the larger (1e-5 absorbs the few hundred instructions of a Google Benchmark
// report). The simulated counts — D1mr, LLmr, Bcm — depend on where code and data lie, which a
// relink or a layout-only change moves: on the planted fixture a hot loop moved 48 bytes changed Bcm
// by 4 of 8,039 and LLmr by 1 of 20 with the same instructions. They move when they differ by more
// than `simulated_relative` of the larger and by at least `simulated_floor` events.
struct move_thresholds {
  double work_relative = 1e-5;
  double simulated_relative = 0.01;
  count simulated_floor = 10;
};
std::vector<std::string> moved_counts(const count_set& a, const count_set& b, const move_thresholds& t = {});

}  // namespace abtest::counts
