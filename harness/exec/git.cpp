#include "harness/exec/git.hpp"

#include "harness/exec/process.hpp"

namespace abtest::exec {

git_result run_git(const std::filesystem::path& dir, const std::vector<std::string>& args, double timeout_s) {
  process_options o;
  o.hardware_counters = false;
  o.timeout_s = timeout_s;
  o.argv = {"git", "-C", dir.string()};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = {{"GIT_TERMINAL_PROMPT", "0"}, {"GIT_PAGER", "cat"}};
  const process_result r = run_process(o);
  git_result g;
  g.ok = r.started && r.exit_code == 0;
  g.out = r.out.head;
  g.err = r.started ? r.err.head : r.error;
  while (!g.out.empty() && g.out.back() == '\n') g.out.pop_back();
  return g;
}

}  // namespace abtest::exec
