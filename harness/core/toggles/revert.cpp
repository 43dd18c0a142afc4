// The `revert` toggle kind: the inverse of a commit of the project's history, applied like a patch
// in the variant's own worktree; two levels, off and applied (design §3.1, §5).
#include <fmt/format.h>

#include <fstream>
#include <regex>

#include "harness/core/toggles/toggle_kind.hpp"
#include "harness/exec/git.hpp"

namespace abtest {
namespace {

class revert_kind final : public toggle_kind {
 public:
  const char* name() const override { return "revert"; }
  bool changes_source() const override { return true; }

  void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
             toggle_spec& t) const override {
    if (j.contains("levels")) v.fail(where + ".levels", "a revert toggle has two levels: off and applied", "remove \"levels\"");
    t.revert = v.string(j[key], where + "." + key);
    static const std::regex rev_re("[A-Za-z0-9_][A-Za-z0-9_./^~@{}-]{0,99}");
    if (!std::regex_match(t.revert, rev_re))
      v.fail(where + "." + key, fmt::format("\"{}\" is not a commit", t.revert), "give a commit hash or a tag, e.g. \"3f2a9c1\"");
  }
  nlohmann::json example(const std::string&) const override { return "3f2a9c1"; }
  void check_source(const manifest_validator& v, const std::string& where, const toggle_spec& t, const manifest& m) const override {
    if (!exec::run_git(m.source_dir, {"rev-parse", "--verify", "--quiet", t.revert + "^{commit}"}).ok)
      v.fail(where, fmt::format("\"{}\" is not a commit of {}", t.revert, m.source_dir.string()),
             "give a commit of the project's history (`git log --oneline` lists them)");
  }

  // The inverse of the commit: the diff from it back to its parent, written to `scratch`.
  source_change source_diff(const toggle_spec& t, const manifest&, const std::filesystem::path& repo,
                            const std::filesystem::path& scratch) const override {
    source_change c;
    const auto d = exec::run_git(repo, {"diff", "--binary", t.revert, t.revert + "^"});
    if (!d.ok) {
      c.error = fmt::format("{}: cannot diff commit {}: {}", t.id, t.revert, d.err.substr(0, d.err.find('\n')));
      return c;
    }
    c.diff = scratch / (t.id + ".revert.diff");
    std::ofstream(c.diff, std::ios::trunc) << d.out << "\n";
    c.applied = fmt::format("{}: revert {}", t.id, t.revert);
    return c;
  }
};

}  // namespace

const toggle_kind& revert_toggle_kind() {
  static const revert_kind kind;
  return kind;
}

}  // namespace abtest
