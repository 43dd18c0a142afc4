// The harness's in-memory view of recorded samples, as the scheduler and the analysis see them.
#pragma once

#include <map>
#include <string>
#include <tuple>

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

}  // namespace abtest
