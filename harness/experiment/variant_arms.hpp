// The arm provider of variant searches (bisect, matrix): each configuration of toggles built once and
// recorded, or stood in by the scenario; failed builds remembered with their log.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/experiment/built_arms.hpp"
#include "harness/experiment/context.hpp"
#include "harness/search/oracle.hpp"

namespace abtest {

// The arm provider of variant searches: builds each variant once (recorded), or, with a scenario,
// stands the variant in without building. Failed builds are remembered as nullopt.
class variant_arms {
 public:
  variant_arms(const manifest& m, db::results_store& store, experiment_context ctx, builder_options options,
               bool simulated);
  std::optional<arm_plan> operator()(const search::levels& levels);
  // The last lines of the build log of a variant that failed (empty otherwise).
  std::string failure(const std::string& key) const;
  // Configurations this provider prepared (built or stood in), failed builds included.
  int configurations() const { return built_.size(); }
  // The `k` layout arms of an arm this provider built (experiment_oracle::relinker), linked once per
  // variant and seed; with a scenario, seeded copies (nothing to link).
  std::vector<arm_plan> layouts(const run_plan& plan, const arm_plan& arm, int k);

 private:
  const manifest& m_;
  builder builder_;
  bool simulated_;
  built_arms built_;  // by variant key
};

}  // namespace abtest
