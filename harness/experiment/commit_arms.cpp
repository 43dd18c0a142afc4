// Commits as arms: each commit built with its own defaults in its worktree, recorded, keyed by the sha.
#include "harness/experiment/commit_arms.hpp"

#include <fmt/format.h>

#include "harness/experiment/worktree.hpp"

namespace abtest {

std::string commit_arms::name() const { return defaults_key(v_, pinned_, m_); }

std::optional<arm_plan> commit_arms::build(const std::string& key, const std::string& sha, const variant& v,
                                           const std::set<std::string>& pinned) {
  if (const auto* known = built_.find(key)) return *known;
  auto& slot = manifests_[sha];
  if (!slot) slot = std::make_unique<manifest>(manifest_at_commit(m_, sha));
  const manifest& at = *slot;
  builder_options bo;
  bo.jobs = jobs_;
  bo.build_root = build_root_for(m_, sha);
  bo.pinned = pinned;
  return built_.build(key, at, v, builder(at, bo), fmt::format("{}@{}", defaults_key(v, pinned, m_), sha.substr(0, 12)));
}

std::optional<arm_plan> commit_arms::operator()(const std::string& sha) { return build(sha, sha, v_, pinned_); }

std::optional<arm_plan> commit_arms::with_level(const std::string& sha, const std::string& id, const std::string& level) {
  variant v = v_;
  v.levels.erase(id);
  if (level != m_.toggle(id).off()) v.levels[id] = level;
  auto pinned = pinned_;
  pinned.insert(id);
  return build(fmt::format("{}+{}={}", sha, id, level), sha, v, pinned);
}

std::string commit_arms::failure(const std::string& sha) const {
  const auto* known = built_.find(sha);
  return known && !*known ? fmt::format("{}:\n{}", built_.log_path(sha).string(), built_.log_tail(sha)) : "";
}

}  // namespace abtest
