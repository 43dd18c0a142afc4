// The arms a provider has built, by its own key: each built once and recorded, a failed build's log
// kept, and the built ones relinkable into layouts. variant_arms and commit_arms hold one each.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/experiment.hpp"

namespace abtest {

class built_arms {
 public:
  built_arms(db::results_store& store, experiment_context ctx) : store_(store), ctx_(std::move(ctx)), relinks_(store, ctx_) {}

  // The answer already given for `key`: the arm, nullopt for a failed build; no entry before the first.
  const std::optional<arm_plan>* find(const std::string& key) const;
  // Builds (m, v) with `b`, records it, and keeps the arm under `key`, named `arm_key`; nullopt (and
  // the log kept) when the build failed. `m` must outlive this object.
  std::optional<arm_plan> build(const std::string& key, const manifest& m, const variant& v, const builder& b,
                                const std::string& arm_key);
  // Keeps `arm` under `key` without building (a simulated variant).
  std::optional<arm_plan> keep(const std::string& key, std::optional<arm_plan> arm);

  // The last lines of the log of `key`'s failed build, and the log's path; empty when it built.
  std::string log_tail(const std::string& key) const;
  // What every toggle resolved to in `key`'s build (design §5), as far as it got; {} before it.
  const resolved_toggles& resolved(const std::string& key) const;
  std::filesystem::path log_path(const std::string& key) const;
  int size() const { return static_cast<int>(arms_.size()); }  // keys answered, failed builds included
  // The `k` layout arms of a built arm (experiment_oracle::relinker), linked once per arm and seed.
  std::vector<arm_plan> layouts(const run_plan& plan, const arm_plan& arm, int k) { return relinks_.layouts(plan, arm, k); }

 private:
  struct failed_build {
    std::filesystem::path log_path;
    std::string log_tail;
  };
  db::results_store& store_;
  experiment_context ctx_;
  std::map<std::string, std::optional<arm_plan>> arms_;
  std::map<std::string, failed_build> failures_;
  std::map<std::string, resolved_toggles> resolved_;
  relink_cache relinks_;
};

}  // namespace abtest
