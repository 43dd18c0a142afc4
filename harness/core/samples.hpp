// The harness's in-memory view of recorded samples, as the scheduler and the analysis see them.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "harness/exec/sample.hpp"

namespace abtest {

struct sample_row {
  int arm = 0;
  std::string benchmark;
  int round = 0;
  bool warmup = false;
  int position = 0;
  exec::sample_status status = exec::sample_status::ok;
  std::string error;
  std::map<std::string, double> metrics;
  std::map<std::string, std::string> checks;
  std::string backend;

  // The identity of a slot: a resumed run never records the same one twice.
  auto slot_key() const { return std::make_tuple(arm, benchmark, round, warmup); }
};

// The rounds recorded: the highest measured (non-warm-up) round, 0 before the first.
inline int rounds_recorded(const std::vector<sample_row>& samples) {
  int rounds = 0;
  for (const auto& s : samples)
    if (!s.warmup && s.round > rounds) rounds = s.round;
  return rounds;
}

}  // namespace abtest
