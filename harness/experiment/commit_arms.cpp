// Commits as arms: the variant built in each commit's worktree, recorded, its arm keyed by the sha.
#include "harness/experiment/commit_arms.hpp"

#include <fmt/format.h>

#include "harness/experiment/worktree.hpp"

namespace abtest {

std::optional<arm_plan> commit_arms::operator()(const std::string& sha) {
  if (const auto it = cache_.find(sha); it != cache_.end()) return it->second;
  const manifest& at = *manifests_.emplace(sha, std::make_unique<manifest>(manifest_at_commit(m_, sha))).first->second;
  builder_options bo;
  bo.jobs = jobs_;
  bo.build_root = build_root_for(m_, sha);
  const auto built = build_and_record(at, v_, store_, builder(at, bo), ctx_);
  std::optional<arm_plan> arm;
  if (built.outcome.ok) {
    arm = arm_for(at, v_, built);
    arm->key = fmt::format("{}@{}", v_.key(m_), sha.substr(0, 12));
    relinks_.built(arm->key, at, built.outcome);
  } else {
    failures_[sha] = fmt::format("{}:\n{}", built.outcome.log_path.string(), built.outcome.log_tail);
  }
  return cache_.emplace(sha, arm).first->second;
}

std::string commit_arms::failure(const std::string& sha) const {
  const auto it = failures_.find(sha);
  return it == failures_.end() ? "" : it->second;
}

}  // namespace abtest
