// Variant searches' arms, built once each or stood in by the scenario (variant_arms.hpp).
#include "harness/experiment/variant_arms.hpp"

#include "harness/core/variant.hpp"
#include "harness/experiment/arms.hpp"

namespace abtest {

variant_arms::variant_arms(const manifest& m, db::results_store& store, experiment_context ctx,
                           builder_options options, bool simulated)
    : m_(m), builder_(m, std::move(options)), simulated_(simulated), built_(store, std::move(ctx)) {}

std::optional<arm_plan> variant_arms::operator()(const search::levels& levels) {
  variant v;
  for (const auto& [id, level] : levels)
    if (level != m_.toggle(id).off()) v.levels[id] = level;
  const std::string key = v.key(m_);
  if (const auto* known = built_.find(key)) return *known;
  if (simulated_) return built_.keep(key, arm_plan{key, v.levels, "", {}, {}, std::nullopt, {}, {}});
  return built_.build(key, m_, v, builder_, key);
}

std::vector<arm_plan> variant_arms::layouts(const run_plan& plan, const arm_plan& arm, int k) {
  return simulated_ ? seeded_layouts(arm, plan.seed, k) : built_.layouts(plan, arm, k);
}

std::string variant_arms::failure(const std::string& key) const { return built_.log_tail(key); }

}  // namespace abtest
