// A command: the project's own build line run in the variant's git worktree, `var` toggles handed a
// level as {NAME} in its argv and $NAME in its environment; a changed line cleans the worktree first
// (design §3.1).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "harness/builder/build_system_driver.hpp"
#include "harness/exec/git.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {

namespace fs = std::filesystem;

command_line expand_build_command(const build_job& j) {
  command_line c;
  std::map<std::string, std::string> values = {{"build_dir", j.dir.string()}};
  const auto levels = j.v.all_levels(j.m);
  std::vector<std::string> left;  // {VAR} of toggles left to the project's defaults (builder_options::pinned)
  for (const auto& t : j.m.toggles)
    if (const std::string* name = t.kind->command_variable(t)) {
      if (hands(j.options, t.id)) values[*name] = c.env[*name] = *t.value_of(levels.at(t.id));
      else left.push_back("{" + *name + "}");
    }
  // An argument that names a toggle left to the project is left out whole (`make X2={X2}` runs as
  // `make`), and its variable is not set: the project's own default decides.
  for (const auto& arg : j.m.build.command)
    if (std::none_of(left.begin(), left.end(), [&](const auto& p) { return arg.find(p) != std::string::npos; }))
      c.argv.push_back(expand_placeholders(arg, values));
  if (j.without_cuda)
    for (const auto& a : j.m.build.without_cuda_args) c.argv.push_back(a);
  return c;
}

namespace {

system_result build_command(const build_job& j) {
  system_result r;
  r.bin_dir = (j.source / j.m.build.bin).lexically_normal();
  const command_line c = expand_build_command(j);
  // The folder was last built by another command line (a level's value, or build.command, was
  // edited): the project's build may not see that its outputs are stale, so it starts from a clean
  // tree, as a CMake folder is configured afresh. The worktree is abtest's own.
  std::string stamp_text = fmt::format("{}\n", fmt::join(c.argv, "\n"));
  for (const auto& [k, val] : c.env) stamp_text += fmt::format("${}={}\n", k, val);
  const fs::path stamp = j.dir / "abtest-command.txt";
  // Only ever in abtest's own worktree (<top>/src beside <top>/build), never in the user's tree.
  const bool own_worktree = j.source.parent_path() == j.dir.parent_path() && j.source.filename() == "src";
  if (own_worktree && fs::exists(stamp) && read_text_file(stamp) != stamp_text) {
    j.output += "abtest: the build command changed since this folder's last build: cleaning its worktree\n";
    exec::run_git(j.source, {"clean", "-fdxq"});
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(j.dir, ec)) fs::remove_all(e.path(), ec);
  }
  std::ofstream(stamp, std::ios::trunc) << stamp_text;
  r.ok = j.run(c.argv, j.source, c.env);
  r.flags = fmt::format("{}", fmt::join(c.argv, " "));
  for (const auto& t : j.targets) r.programs[t] = r.bin_dir / t;
  return r;
}

class command_system final : public build_system_driver {
 public:
  system_result build(const build_job& j) const override { return build_command(j); }
};

}  // namespace

const build_system_driver& command_driver() {
  static const command_system d;
  return d;
}

}  // namespace abtest
