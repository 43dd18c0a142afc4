// Runs git on a folder: the one place the harness starts git (source snapshots, worktrees, the
// build record's commit, the manifest's revert checks).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace abtest::exec {

struct git_result {
  bool ok = false;  // started and exited 0
  std::string out;  // stdout, trailing newlines removed
  std::string err;  // stderr, or why git did not start
};

// `git -C dir args...`, with a timeout (git never waits for input here: no pager, no prompt).
git_result run_git(const std::filesystem::path& dir, const std::vector<std::string>& args, double timeout_s = 300);

}  // namespace abtest::exec
