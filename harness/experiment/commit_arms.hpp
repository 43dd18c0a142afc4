// Commits as arms: each commit built as it ships — the project's own defaults for every toggle but
// the named ones (design §5) — in its own worktree and build root (memoised), for commit bisection,
// `check` and the pull-request gate; and what each toggle resolved to there.
//
//   commit_arms arms(m, store, ctx, variant_from_flags({}, m), /*pinned=*/{}, /*jobs=*/2);
//   const std::optional<arm_plan> base = arms(base_sha);   // nullopt: that commit does not build
//   arms.failure(base_sha)                                 // then: the last lines of its build log
//   default_flips(arms.resolved(base_sha), arms.resolved(head_sha))   // "FX_X2: OFF → ON"
//   arms.with_level(head_sha, "FX_X2", "OFF")              // the head with the base's default
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
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
  // `pinned`: the toggles (--toggle) given a level at every commit, `v`'s level (off where `v` has
  // none); every other toggle is left to each commit's own defaults (builder_options::pinned).
  commit_arms(const manifest& m, db::results_store& store, experiment_context ctx, variant v, std::set<std::string> pinned, int jobs)
      : m_(m), v_(std::move(v)), pinned_(std::move(pinned)), jobs_(jobs), built_(store, std::move(ctx)) {}

  // The arm built at `sha` (keyed `<name>@<sha12>`), built and recorded on the first call; nullopt
  // when the build failed.
  std::optional<arm_plan> operator()(const std::string& sha);
  // The arm of `sha` with toggle `id` also given `level`: a commit with one default put back
  // (the attribution of a default flip), keyed `<name>+ID=LEVEL@<sha12>`.
  std::optional<arm_plan> with_level(const std::string& sha, const std::string& id, const std::string& level);
  // What the builds are called: "defaults", "defaults+CRASH" (defaults_key).
  std::string name() const;
  // The manifest as seen at `sha`: its source_dir inside the commit's worktree (after operator()).
  const manifest& at(const std::string& sha) const { return *manifests_.at(sha); }
  // What every toggle resolved to in `sha`'s build (after operator()).
  const resolved_toggles& resolved(const std::string& sha) const { return built_.resolved(sha); }
  // "<log path>:\n<last lines>" of a commit whose build failed; empty otherwise.
  std::string failure(const std::string& sha) const;
  // The k layout arms of a commit's arm (experiment_oracle::relinker), linked once per seed.
  std::vector<arm_plan> layouts(const run_plan& plan, const arm_plan& arm, int k) { return built_.layouts(plan, arm, k); }

 private:
  std::optional<arm_plan> build(const std::string& key, const std::string& sha, const variant& v, const std::set<std::string>& pinned);

  const manifest& m_;
  variant v_;
  std::set<std::string> pinned_;
  int jobs_;
  std::map<std::string, std::unique_ptr<manifest>> manifests_;
  built_arms built_;  // by sha (and sha+ID=LEVEL)
};

}  // namespace abtest
