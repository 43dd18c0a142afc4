// Commits as build sources: `git rev-list` of a range and one detached worktree per tested commit.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"

namespace abtest {

// `git rev-parse --verify REV^{commit}` in the manifest's source tree; usage error naming REV when
// it is not a commit.
std::string resolve_commit(const manifest& m, const std::string& rev);

// GOOD, then the commits of GOOD..BAD on the ancestry path, oldest first (so BAD is last).
std::vector<std::string> commit_range(const manifest& m, const std::string& good, const std::string& bad);

// The first line of the commit message, for reports.
std::string commit_subject(const manifest& m, const std::string& sha);

// The commits marked good in a running `git bisect` (refs/bisect/good-*), oldest ref first.
std::vector<std::string> bisect_good_commits(const manifest& m);

// A copy of `m` whose source_dir is the same folder inside a detached worktree of `sha` at
// <state dir>/worktrees/<sha> (added on first use, reused after), for a builder whose build root
// is build_root_for(m, sha).
manifest manifest_at_commit(const manifest& m, const std::string& sha);
std::filesystem::path build_root_for(const manifest& m, const std::string& sha);

}  // namespace abtest
