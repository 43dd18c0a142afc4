// Arms built once per key, recorded, their failures' logs kept.
#include "harness/experiment/built_arms.hpp"

namespace abtest {

const std::optional<arm_plan>* built_arms::find(const std::string& key) const {
  const auto it = arms_.find(key);
  return it == arms_.end() ? nullptr : &it->second;
}

std::optional<arm_plan> built_arms::build(const std::string& key, const manifest& m, const variant& v, const builder& b,
                                          const std::string& arm_key) {
  const auto built = build_and_record(m, v, store_, b, ctx_);
  std::optional<arm_plan> arm;
  resolved_[key] = built.outcome.resolved;
  if (built.outcome.ok) {
    arm = arm_for(m, v, built);
    arm->key = arm_key;
    relinks_.built(arm_key, m, built.outcome);
  } else {
    failures_[key] = {built.outcome.log_path, built.outcome.log_tail};
  }
  return keep(key, std::move(arm));
}

std::optional<arm_plan> built_arms::keep(const std::string& key, std::optional<arm_plan> arm) {
  return arms_.insert_or_assign(key, std::move(arm)).first->second;
}

const resolved_toggles& built_arms::resolved(const std::string& key) const {
  static const resolved_toggles none;
  const auto it = resolved_.find(key);
  return it == resolved_.end() ? none : it->second;
}

std::string built_arms::log_tail(const std::string& key) const {
  const auto it = failures_.find(key);
  return it == failures_.end() ? "" : it->second.log_tail;
}

std::filesystem::path built_arms::log_path(const std::string& key) const {
  const auto it = failures_.find(key);
  return it == failures_.end() ? std::filesystem::path{} : it->second.log_path;
}

}  // namespace abtest
