// git plumbing for commit bisection: rev-list, worktrees, subjects.
#include "harness/experiment/worktree.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/exec/git.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// Runs git in the manifest's source tree; returns stdout, throws a usage error with git's message.
std::string git(const manifest& m, std::vector<std::string> args, const std::string& what) {
  const exec::git_result r = exec::run_git(m.source_dir, args);
  if (!r.ok)
    throw usage_error(fmt::format("{}: `git -C {} {}` failed: {} — is {} inside a git repository?", what,
                                  m.source_dir.string(), fmt::join(args, " "), r.err, m.source_dir.string()));
  return r.out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace

std::string resolve_commit(const manifest& m, const std::string& rev) {
  const auto out = lines(git(m, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"}, fmt::format("{} is not a commit", rev)));
  if (out.empty()) throw usage_error(fmt::format("{} is not a commit — give a sha, a branch or a tag", rev));
  return out.front();
}

std::vector<std::string> commit_range(const manifest& m, const std::string& good, const std::string& bad) {
  std::vector<std::string> out{resolve_commit(m, good)};
  const std::string bad_sha = resolve_commit(m, bad);
  for (const auto& sha : lines(git(m, {"rev-list", "--reverse", "--ancestry-path", out.front() + ".." + bad_sha}, "rev-list")))
    out.push_back(sha);
  if (out.size() < 2 || out.back() != bad_sha)
    throw usage_error(fmt::format("{} is not an ancestor of {} — give --commits GOOD..BAD with GOOD older", good, bad));
  return out;
}

std::string commit_subject(const manifest& m, const std::string& sha) {
  const auto out = lines(git(m, {"log", "-1", "--format=%s", sha}, "git log"));
  return out.empty() ? "" : out.front();
}

std::vector<std::string> bisect_good_commits(const manifest& m) {
  return lines(git(m, {"for-each-ref", "--sort=committerdate", "--format=%(objectname)", "refs/bisect/good-*"},
                   "reading the bisect refs"));
}

fs::path build_root_for(const manifest& m, const std::string& sha) { return m.state_dir() / "commits" / sha; }

manifest manifest_at_commit(const manifest& m, const std::string& sha) {
  const fs::path top = lines(git(m, {"rev-parse", "--show-toplevel"}, "finding the repository")).front();
  const fs::path tree = m.state_dir() / "worktrees" / sha;
  if (!fs::exists(tree / ".git")) {
    fs::create_directories(tree.parent_path());
    git(m, {"worktree", "add", "--detach", "--force", tree.string(), sha}, fmt::format("checking out {}", sha));
  }
  manifest out = m;
  out.source_dir = tree / fs::relative(fs::weakly_canonical(m.source_dir), fs::weakly_canonical(top));
  return out;
}

}  // namespace abtest
