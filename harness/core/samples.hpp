// An experiment's recorded samples (abtest::sample, harness/sample/), as the scheduler and the analysis see them.
#pragma once

#include <vector>

#include "harness/sample/sample.hpp"

namespace abtest {

// The rounds recorded: the highest measured (non-warm-up) round, 0 before the first.
inline int rounds_recorded(const std::vector<sample>& samples) {
  int rounds = 0;
  for (const auto& s : samples)
    if (!s.warmup && s.round > rounds) rounds = s.round;
  return rounds;
}

}  // namespace abtest
