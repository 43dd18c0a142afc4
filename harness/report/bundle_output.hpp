// What `abtest run --bundle DIR` and `abtest matrix --bundle DIR` show of the bundle they wrote in
// place of a measurement — for the terminal and --json (design §3.2, §9).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/report/exporter.hpp"

namespace abtest::report {

struct bundle_written {
  std::string folder, experiment;
  std::vector<std::string> arms, benchmarks;  // the arms' keys
  int rounds = 0, warmups = 0;
  std::uint64_t seed = 0;
  std::int64_t programs = 0, libraries = 0, bytes = 0;
  std::vector<std::string> notes;
};

// terminal: the notes, then "bundle DIR: experiment ID, N arms (…) × M benchmark(s), …", its size
// and the two commands of the host that measures and the import back here; json: {bundle,
// experiment, arms, benchmarks, rounds, warmups, seed, programs, libraries, bytes, notes}.
std::string render(const bundle_written& b, format f);

}  // namespace abtest::report
