// Where in an experiment's plan one sample goes: arm, benchmark, round, warm-up, position.
#pragma once

#include <string>
#include <tuple>

namespace abtest {

// One invocation slot of a round (core/plan.hpp's round_slots lays them out).
struct slot {
  int arm = 0;
  std::string benchmark;
  int round = 0;        // 1-based; warm-ups have their own rounds 1..warmups
  bool warmup = false;
  int position = 0;     // order within the round

  // The identity of a slot: a resumed run never records the same one twice (position aside).
  auto slot_key() const { return std::make_tuple(arm, benchmark, round, warmup); }
  bool operator==(const slot&) const = default;
};

}  // namespace abtest
