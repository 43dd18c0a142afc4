// Commits as arms: the variant built in each commit's worktree, recorded, its arm keyed by the sha.
#include "harness/experiment/commit_arms.hpp"

#include <fmt/format.h>

#include "harness/experiment/worktree.hpp"

namespace abtest {

std::optional<arm_plan> commit_arms::operator()(const std::string& sha) {
  if (const auto* known = built_.find(sha)) return *known;
  const manifest& at = *manifests_.emplace(sha, std::make_unique<manifest>(manifest_at_commit(m_, sha))).first->second;
  builder_options bo;
  bo.jobs = jobs_;
  bo.build_root = build_root_for(m_, sha);
  return built_.build(sha, at, v_, builder(at, bo), fmt::format("{}@{}", v_.key(m_), sha.substr(0, 12)));
}

std::string commit_arms::failure(const std::string& sha) const {
  const auto* known = built_.find(sha);
  return known && !*known ? fmt::format("{}:\n{}", built_.log_path(sha).string(), built_.log_tail(sha)) : "";
}

}  // namespace abtest
