// Runs one benchmark command under Valgrind — cachegrind, then DHAT — and returns its counts.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/counts/count_set.hpp"
#include "harness/exec/env_changes.hpp"

namespace abtest::counts {

// A simulated cache: total bytes, associativity, line bytes (Valgrind's --I1/--D1/--LL=S,A,L).
struct cache_geometry {
  unsigned size = 0, assoc = 0, line = 0;
};

struct counts_options {
  std::vector<std::string> argv;            // the benchmark command; argv[0] as for exec::run_process
  std::filesystem::path working_dir;        // empty: the harness's current directory
  exec::env_changes env;                    // set in, or removed from, the inherited environment
  // Where cachegrind.out, dhat.json and Valgrind's logs go; kept afterwards. Empty: a fresh
  // folder under the system's temporary directory, removed afterwards.
  std::filesystem::path scratch_dir;
  std::string valgrind = "valgrind";        // the program: a path, or a name looked up in PATH
  // Fixed by default rather than read from the host's CPUID, so that miss counts of different
  // hosts are comparable: a 32 KiB 8-way I1 and D1, an 8 MiB 16-way LL, 64-byte lines (sets must
  // be a power of two). Recorded in count_set::cache_config either way.
  std::optional<cache_geometry> i1 = cache_geometry{32768, 8, 64};
  std::optional<cache_geometry> d1 = cache_geometry{32768, 8, 64};
  std::optional<cache_geometry> ll = cache_geometry{8u << 20, 16, 64};
  // Count instructions, misses and branches only inside calls of the functions this pattern names
  // (and what they call): callgrind's --toggle-collect, `*` and `?` wildcards over the demangled
  // name, e.g. "zk::bench::run_synthesis*". Callgrind then runs instead of cachegrind, with the
  // same events and caches. Empty: the whole program, which is exact only when all of it is
  // deterministic — a Google Benchmark program's report of its timings is not (printing the
  // measured times and the date moved Ir by 127 between two runs of synth-bench on `tiny`; the
  // synthesis alone did not move). Allocations (DHAT) are always counted over the whole program.
  std::string region;
  // Run argv[0] (when it is a path) through a symbolic link in a fresh temporary folder, so that
  // every arm's program is named by a path of the same length: Google Benchmark copies argv[0],
  // and two builds of synth-bench whose paths differed by 5 characters allocated 15 bytes more or
  // less for nothing else. A program that finds its files beside argv[0] needs this off (or its
  // files found another way); /proc/self/exe still names the real binary.
  bool same_argv0 = true;
  bool allocations = true;   // also run under DHAT (alloc_* counts); false: no DHAT run
  double timeout_s = 0.0;    // per Valgrind run; 0: no limit. Expect 20–100× the native time.
};

struct counts_result {
  std::optional<count_set> counts;   // set when both runs succeeded and their files parsed
  std::string error;                 // set otherwise: `<what> — <what to do>`
  std::optional<int> exit_code;      // of the failed run, when it exited
  std::optional<int> signal;         // of the failed run, when a signal ended it
  std::string program_stdout;        // the benchmark's stdout under cachegrind (first 64 MiB)
  double cachegrind_wall_s = 0.0;    // the cachegrind (or, with a region, callgrind) run
  double dhat_wall_s = 0.0;
};

// "valgrind-3.19.0" from `valgrind --version`; nullopt with `error` set when it cannot be run
// (not installed: the error says `apt-get install valgrind`).
std::optional<std::string> valgrind_version(const std::string& valgrind, std::string& error);

// Runs `options.argv` under
//   valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --I1=… --D1=… --LL=…
//            --cachegrind-out-file=<scratch>/cachegrind.out --log-file=<scratch>/cachegrind.log
// (with a `region`: --tool=callgrind --collect-atstart=no --toggle-collect=<region>, callgrind.out)
// and, with `allocations`, under `valgrind --tool=dhat --dhat-out-file=<scratch>/dhat.json`. The
// program's own stdout and stderr stay separate from Valgrind's messages (--log-file). A run that
// exits non-zero or is killed is an error naming its exit code or signal, with the tail of the
// program's stderr and what Valgrind's log says; so is a region in which nothing ran.
//
// Determinism: Ir is exact for code whose work does not depend on time or thread scheduling
// (Google Benchmark needs a fixed iteration count, and a region that leaves its report out).
// Simulated misses (D1mr, LLmr, Bcm) also depend on the cache and branch-predictor state left by
// the code that ran before, which need not be deterministic: in three runs of synth-bench's
// synthesis (preset tiny, region zk::bench::run_synthesis*) Ir, D1mr, LLmr and the allocations
// were equal and Bcm moved by up to 6 in 5.35 million, inside deterministic functions
// (indexer::add, malloc). Compare Bcm with that in mind.
// Never throws for a failure of the command.
//
//   counts_options o;
//   o.argv = {"build/base/synth-bench", "--preset=tiny", "--iterations=1"};
//   o.region = "zk::bench::run_synthesis*";
//   counts_result r = run_counts(o);
//   if (!r.counts) fail(r.error);
//   metrics = to_metrics(*r.counts, "synth");   // synth.counts.Ir, …
counts_result run_counts(const counts_options& options);

}  // namespace abtest::counts
