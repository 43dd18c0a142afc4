// The `patch` toggle kind: `git apply` of a diff in the variant's own worktree; two levels, off and
// applied (design §3.1, §5).
#include <fmt/format.h>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

class patch_kind final : public toggle_kind {
 public:
  const char* name() const override { return "patch"; }
  bool changes_source() const override { return true; }

  void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
             toggle_spec& t) const override {
    if (j.contains("levels")) v.fail(where + ".levels", "a patch toggle has two levels: off and applied", "remove \"levels\"");
    const std::string file = v.string(j[key], where + "." + key);
    if (file.empty()) v.fail(where + "." + key, "is empty", "give the diff's path, relative to the manifest");
    t.patch = file;  // made absolute by resolve_paths, from the manifest's folder
  }
  nlohmann::json example(const std::string&) const override { return "patches/p1.diff"; }
  void resolve_paths(toggle_spec& t, const std::filesystem::path& manifest_dir) const override {
    t.patch = (manifest_dir / t.patch).lexically_normal();
  }
  void check_source(const manifest_validator& v, const std::string& where, const toggle_spec& t, const manifest&) const override {
    if (!std::filesystem::is_regular_file(t.patch))
      v.fail(where, fmt::format("no patch file {}", t.patch.string()), "give the diff's path relative to the manifest's folder");
  }

  std::vector<std::filesystem::path> own_files(const toggle_spec& t) const override { return {t.patch}; }
  source_change source_diff(const toggle_spec& t, const manifest& m, const std::filesystem::path&,
                            const std::filesystem::path&) const override {
    return {t.patch, fmt::format("{}: {}", t.id, std::filesystem::relative(t.patch, m.dir).string()), {}};
  }
};

}  // namespace

const toggle_kind& patch_toggle_kind() {
  static const patch_kind kind;
  return kind;
}

}  // namespace abtest
