// The seam for toggle kinds (design §3.1): one kind of toggle — its manifest keys and their
// validation, what it hands each build system, the benchmark's environment and the source tree —
// behind one interface, and the registry that lists them.
//
// A new kind is one file here defining its kind and one row in registry.cpp; nothing else changes:
//   class cflags_kind final : public toggle_kind {
//     const char* name() const override { return "cflags"; }
//     void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key,
//                const std::string& where, toggle_spec& t) const override { t.var = variable_name(v, j[key], where + "." + key); }
//     nlohmann::json example(const std::string&) const override { return "CFLAGS"; }
//     const std::string* command_variable(const toggle_spec& t) const override { return &t.var; }
//   };
//   const toggle_kind& cflags_toggle_kind() { static const cflags_kind k; return k; }
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/manifest_validator.hpp"

namespace abtest {

// A source change as a variant's worktree applies it: a diff and how the build record names it.
struct source_change {
  std::filesystem::path diff;
  std::string applied;  // "P1: patches/p1.diff", "R1: revert 3f2a9c1"
  std::string error;    // not empty: no diff could be made
};

class toggle_kind {
 public:
  virtual ~toggle_kind() = default;

  // The kind's name: its first manifest key, and how messages (`toggles[2].option`) name it.
  virtual const char* name() const = 0;
  // The manifest keys that give a toggle this kind, exactly one per toggle; the first is name().
  virtual std::vector<std::string> keys() const { return {name()}; }
  // The build systems that can honour it; empty: every system.
  virtual std::vector<build_system> systems() const { return {}; }
  // Whether its levels need builds of their own (env: no), and whether they change the source
  // (patch, revert: each variant then builds in a worktree).
  virtual bool changes_build() const { return true; }
  virtual bool changes_source() const { return false; }

  // ---- The manifest (design §3). Each check fails through `v`, naming the key and the fix.
  // Reads `j[key]` (key one of keys()) into `t`, whose levels and `on` are already read.
  virtual void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
                     toggle_spec& t) const = 0;
  // A valid value of `key` on a two-level toggle `{"levels": ["OFF", "ON"]}`, for the registry's test.
  virtual nlohmann::json example(const std::string& key) const = 0;
  // Whether `"values"` may map levels to text (option, var, env), and to null (env: unset); where
  // not, the fix its error names.
  virtual bool takes_values() const { return false; }
  virtual bool value_may_be_unset() const { return false; }
  virtual std::string no_values_fix() const { return "remove it: values are for option, var and env toggles"; }
  // The variable the toggle owns (an option, var or env name): no two toggles may share one. Empty: none.
  virtual std::string variable(const toggle_spec&) const { return {}; }
  // Makes what `t` names relative to the manifest's folder absolute (a patch file).
  virtual void resolve_paths(toggle_spec&, const std::filesystem::path& /*manifest_dir*/) const {}
  // What lies outside the text (load_manifest): the patch file exists, the reverted commit is there.
  // `where` is `toggles[i].<name>`.
  virtual void check_source(const manifest_validator&, const std::string& /*where*/, const toggle_spec&, const manifest&) const {}

  // ---- What a level hands the build, the benchmark and the source tree (design §3.1).
  // CMake and Meson: the option that carries the level, and its configure argument for `value`.
  virtual const std::string* configure_option(const toggle_spec&) const { return nullptr; }
  virtual std::optional<std::string> configure_definition(const toggle_spec&, const std::string& /*value*/) const { return {}; }
  // Cargo: level → the features that level enables.
  virtual const std::map<std::string, std::vector<std::string>>* cargo_features(const toggle_spec&) const { return nullptr; }
  // A command build: the variable that is {NAME} in build.command and $NAME in its environment.
  virtual const std::string* command_variable(const toggle_spec&) const { return nullptr; }
  // The benchmark process: the variable set (or removed) in its environment.
  virtual const std::string* run_variable(const toggle_spec&) const { return nullptr; }
  // How the build is handed `value`, as `abtest build --dry-run` shows it (`-DNAME="value"`); empty: not shown.
  virtual std::string shown(const toggle_spec&, const std::string& /*value*/) const { return {}; }
  // abtest's own files in the project folder (a patch's diff): read from there, never snapshotted.
  virtual std::vector<std::filesystem::path> own_files(const toggle_spec&) const { return {}; }
  // The diff that applies `t` in a worktree of the snapshot of `repo`; `scratch` is a folder for
  // diffs made on the way. Only for kinds that change_source().
  virtual source_change source_diff(const toggle_spec&, const manifest&, const std::filesystem::path& /*repo*/,
                                    const std::filesystem::path& /*scratch*/) const {
    return {};
  }
};

// Every kind, in the order the docs list them (registry.cpp).
const std::vector<const toggle_kind*>& toggle_kinds();
// The kind that `key` (a manifest key such as "features") selects; nullptr for none.
const toggle_kind* find_toggle_kind(std::string_view key);
// The default kind of a toggle_spec: a build option.
const toggle_kind& option_toggle_kind();

// Reads one toggle object of the manifest (toggle_object.cpp): id, levels, its kind key (handed to
// the kind), values, on, title, phase, requires.
toggle_spec parse_toggle(const manifest_validator& v, const nlohmann::json& j, const std::string& where, build_system system);

// For the kinds: a variable's name ([A-Za-z_][A-Za-z0-9_]*) at `key`.
std::string variable_name(const manifest_validator& v, const nlohmann::json& value, const std::string& key);
// For the kinds: whether `name` is a Cargo feature (`f`, `member/f`, `member?/f`).
bool is_cargo_feature(const std::string& name);

}  // namespace abtest
