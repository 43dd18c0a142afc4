// An oracle that samples a scenario (design §12) instead of building and running: the simulated executor.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "harness/search/oracle.hpp"
#include "harness/search/scenario.hpp"
#include "harness/stats/confidence_sequence.hpp"

namespace abtest::search {

struct simulated_oracle_options {
  stats::sequential_options first{.alpha = 0.05, .tau = 0.02, .margin = stats::default_margin, .min_rounds = 10,
                                  .max_rounds = 50};
  int retry_max_rounds = 100;  // attempt ≥ 1 measures afresh, with up to this many rounds
};

// compare(): paired rounds through an adaptive_monitor (always-valid CI at the request's α, stop when
// decisive under the request's margin); an attempt ≥ 1 re-runs with max_rounds = retry_max_rounds.
// run_matrix(): every configuration once per round. Rounds are numbered across the oracle's life, so a
// scenario's drift keeps accumulating as it would on a real machine. The scenario must outlive the oracle.
class simulated_oracle : public oracle {
 public:
  simulated_oracle(const scenario& s, std::string metric, std::uint64_t seed, simulated_oracle_options options = {});

  comparison compare(const levels& from, const levels& to, const comparison_request& request) override;
  matrix_result run_matrix(const std::vector<levels>& configs, int rounds) override;

 private:
  const scenario& scenario_;
  std::string metric_;
  std::mt19937_64 rng_;
  simulated_oracle_options options_;
  int round_ = 0;
};

}  // namespace abtest::search
