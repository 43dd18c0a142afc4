// Commits as arms: one variant built at each commit in its own worktree and build root (memoised),
// for commit bisection and the pull-request gate.
//
//   commit_arms arms(m, store, ctx, variant_from_flags({}, m), /*jobs=*/2);
//   const std::optional<arm_plan> base = arms(base_sha);   // nullopt: that commit does not build
//   arms.failure(base_sha)                                 // then: the last lines of its build log
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/built_arms.hpp"
#include "harness/experiment/context.hpp"

namespace abtest {

class commit_arms {
 public:
  commit_arms(const manifest& m, db::results_store& store, experiment_context ctx, variant v, int jobs)
      : m_(m), v_(std::move(v)), jobs_(jobs), built_(store, std::move(ctx)) {}

  // The arm of the variant built at `sha` (keyed `<variant>@<sha12>`), built and recorded on the
  // first call; nullopt when the build failed.
  std::optional<arm_plan> operator()(const std::string& sha);
  // The manifest as seen at `sha`: its source_dir inside the commit's worktree (after operator()).
  const manifest& at(const std::string& sha) const { return *manifests_.at(sha); }
  // "<log path>:\n<last lines>" of a commit whose build failed; empty otherwise.
  std::string failure(const std::string& sha) const;
  // The k layout arms of a commit's arm (experiment_oracle::relinker), linked once per seed.
  std::vector<arm_plan> layouts(const run_plan& plan, const arm_plan& arm, int k) { return built_.layouts(plan, arm, k); }

 private:
  const manifest& m_;
  variant v_;
  int jobs_;
  std::map<std::string, std::unique_ptr<manifest>> manifests_;
  built_arms built_;  // by sha
};

}  // namespace abtest
