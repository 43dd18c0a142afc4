// Loads abtest.json and validates it against the contract of design §3, naming file, key and fix.
#include "harness/core/manifest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/manifest_metrics.hpp"
#include "harness/core/manifest_validator.hpp"
#include "harness/core/toggles/toggle_kind.hpp"
#include "harness/exec/git.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;
using validator = manifest_validator;

const std::regex& placeholder_pattern() {
  static const std::regex re("\\{([^{}]*)\\}");
  return re;
}

// Each build system as the manifest knows it: its name and the keys its `build` object takes
// (design §3.1); the toggle kinds it honours say so themselves (toggles/). A new system is a row
// here, its kinds' systems(), and a driver in harness/builder/.
struct system_row {
  build_system system;
  const char* name;
  std::vector<std::string> keys;  // of the `build` object
  void (*parse)(const validator&, const json&, build_spec&);  // its own keys
  bool bench_targets = false;     // builds "bench:NAME" targets (Cargo)
  bool in_source = false;         // builds in the source tree: every variant needs a worktree of its own
};
void parse_cmake_keys(const validator& v, const json& b, build_spec& out);
void parse_cargo_keys(const validator& v, const json& b, build_spec& out);
void parse_command_keys(const validator& v, const json& b, build_spec& out);
void parse_meson_keys(const validator& v, const json& b, build_spec& out);
const std::vector<system_row>& system_rows() {
  static const std::vector<system_row> rows = {
      {build_system::cmake, "cmake",
       {"system", "generator", "build_type", "targets", "cmake_args", "without_cuda_args", "bundle_args"}, parse_cmake_keys},
      {build_system::cargo, "cargo",
       {"system", "profile", "targets", "packages", "features", "args", "without_cuda_args"}, parse_cargo_keys,
       /*bench_targets=*/true},
      {build_system::command, "command", {"system", "command", "bin", "targets", "without_cuda_args"}, parse_command_keys,
       /*bench_targets=*/false, /*in_source=*/true},
      {build_system::meson, "meson", {"system", "build_type", "targets", "args", "without_cuda_args"}, parse_meson_keys},
  };
  return rows;
}
const system_row& row_of(build_system s) {
  for (const auto& r : system_rows())
    if (r.system == s) return r;
  throw std::logic_error("a build system without its row in system_rows()");
}

// `"counts"`: false, true (the defaults), or the object of counts_spec.
counts_spec parse_counts(const validator& v, const json& j, const std::string& where, double bench_timeout_s) {
  counts_spec c;
  c.timeout_s = 50 * bench_timeout_s;
  if (j.is_boolean()) {
    c.enabled = j.get<bool>();
    return c;
  }
  if (!j.is_object())
    v.fail(where, "must be an object or false", "e.g. {\"params\": {\"preset\": \"tiny\"}}, or false to leave the benchmark out of --counts");
  v.only_keys(j, where, {"params", "region", "args", "rename", "timeout_s"});
  if (j.contains("params"))
    for (const auto& [key, value] : v.object(j, "params", where + ".params").items())
      c.params[key] = v.scalar(value, where + ".params." + key);
  if (j.contains("region")) {
    c.region = v.string(j["region"], where + ".region");
    if (c.region.empty() || c.region.find_first_of(" \t\n") != std::string::npos)
      v.fail(where + ".region", fmt::format("\"{}\" is not a function pattern", c.region),
             "name the function as `nm -C` spells it, with * and ? as wildcards, e.g. \"ns::run*\"");
  }
  if (j.contains("args")) c.args = v.strings(j["args"], where + ".args");
  if (j.contains("rename")) {
    const json& r = j["rename"];
    if (!r.is_array()) v.fail(where + ".rename", "must be an array of [pattern, replacement] pairs", "e.g. [[\"<[0-9]+ul>\", \"<N>\"]]");
    for (size_t i = 0; i < r.size(); ++i) {
      const std::string at = fmt::format("{}.rename[{}]", where, i);
      const auto pair = v.strings(r[i], at);
      if (pair.size() != 2) v.fail(at, "must be a [pattern, replacement] pair", "e.g. [\"<[0-9]+ul>\", \"<N>\"]");
      try {
        std::regex re(pair[0], std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        v.fail(at, fmt::format("is not a valid ECMAScript regular expression ({})", e.what()), "fix the expression");
      }
      c.rename.emplace_back(pair[0], pair[1]);
    }
  }
  if (j.contains("timeout_s")) c.timeout_s = v.positive(j["timeout_s"], where + ".timeout_s");
  return c;
}

// The benchmark's output format: its row, which names the keys the format takes (design §4).
const exec::output_format_row& format_row(const validator& v, const json& j, const std::string& where) {
  if (!j.contains("format")) v.fail(where + ".format", "missing", fmt::format("use one of: {}", exec::output_format_names()));
  const std::string format = v.string(j["format"], where + ".format");
  const exec::output_format_row* row = exec::find_output_format(format);
  if (row == nullptr)
    v.fail(where + ".format", fmt::format("unknown format \"{}\"", format), fmt::format("use one of: {}", exec::output_format_names()));
  return *row;
}

// The one hook where a format's own keys (`pattern`, `rows`, …) are handed to its row to validate.
json format_options(const validator& v, const exec::output_format_row& row, const json& j, const std::string& where) {
  try {
    return row.options(j);
  } catch (const exec::format_key_error& e) {
    v.fail(where + "." + e.key, e.what, e.fix);
  }
}

benchmark_spec parse_benchmark(const validator& v, const json& j, const std::string& where) {
  if (!j.is_object()) v.fail(where, "must be an object", "write {\"name\": ..., \"format\": ..., \"command\": [...]}");
  const exec::output_format_row& row = format_row(v, j, where);
  std::vector<std::string> keys{"name", "format", "command", "timeout_s", "warmups", "ok_exit_codes", "counts", "better", "margin"};
  keys.insert(keys.end(), row.keys.begin(), row.keys.end());
  v.only_keys(j, where, keys);
  benchmark_spec b;
  if (!j.contains("name")) v.fail(where + ".name", "missing", "name the benchmark, e.g. \"proof\"");
  b.name = v.string(j["name"], where + ".name");
  static const std::regex name_re("[a-z][a-z0-9_]{0,31}");
  if (!std::regex_match(b.name, name_re))
    v.fail(where + ".name", fmt::format("\"{}\" is not a valid benchmark name", b.name),
           "use 1–32 characters [a-z0-9_] starting with a letter (it prefixes metric names)");
  b.format = std::string(row.name);
  b.format_options = format_options(v, row, j, where);
  if (!j.contains("command")) v.fail(where + ".command", "missing", "give the program and its arguments as an array");
  b.command = v.strings(j["command"], where + ".command");
  if (b.command.empty() || b.command.front().empty())
    v.fail(where + ".command", "is empty", "give the program and its arguments, e.g. [\"{bin}/bench\", \"--json\"]");
  if (j.contains("timeout_s")) b.timeout_s = v.positive(j["timeout_s"], where + ".timeout_s");
  if (j.contains("warmups")) {
    if (!j["warmups"].is_number_integer() || j["warmups"].get<int>() < 0)
      v.fail(where + ".warmups", "must be a non-negative integer", "e.g. 1");
    b.warmups = j["warmups"].get<int>();
  }
  if (j.contains("ok_exit_codes")) {
    const json& codes = j["ok_exit_codes"];
    if (!codes.is_array() || codes.empty())
      v.fail(where + ".ok_exit_codes", "must be a non-empty array of exit codes", "e.g. [0, 4] for a program that exits with its count");
    b.ok_exit_codes.clear();
    for (const auto& c : codes) {
      if (!c.is_number_integer() || c.get<long long>() < 0 || c.get<long long>() > 255)
        v.fail(where + ".ok_exit_codes", fmt::format("{} is not an exit code", c.dump()), "use integers 0–255");
      b.ok_exit_codes.push_back(c.get<int>());
    }
  }
  b.counts.timeout_s = 50 * b.timeout_s;
  if (j.contains("counts")) b.counts = parse_counts(v, j["counts"], where + ".counts", b.timeout_s);
  return b;
}

void check_placeholders(const validator& v, const manifest& m) {
  for (size_t i = 0; i < m.benchmarks.size(); ++i) {
    const auto& b = m.benchmarks[i];
    for (const auto& [key, value] : b.counts.params)
      if (!m.params.count(key))
        v.fail(fmt::format("benchmarks[{}].counts.params.{}", i, key), "is not a key of \"params\"",
               "counts change the run's params: add it to \"params\" or leave it out");
    std::vector<std::pair<std::string, const std::string*>> args;
    for (size_t a = 0; a < b.command.size(); ++a) args.emplace_back(fmt::format("benchmarks[{}].command[{}]", i, a), &b.command[a]);
    for (size_t a = 0; a < b.counts.args.size(); ++a)
      args.emplace_back(fmt::format("benchmarks[{}].counts.args[{}]", i, a), &b.counts.args[a]);
    for (const auto& [where, text] : args) {
      const std::string& arg = *text;
      for (std::sregex_iterator it(arg.begin(), arg.end(), placeholder_pattern()), end; it != end; ++it) {
        const std::string name = (*it)[1];
        if (name == "bin" || name == "out") continue;
        if (!m.params.count(name)) {
          std::vector<std::string> known{"bin", "out"};
          for (const auto& [k, _] : m.params) known.push_back(k);
          v.fail(where, fmt::format("placeholder {{{}}} is not defined", name),
                 fmt::format("add \"{}\" to \"params\" (known: {})", name, fmt::join(known, ", ")));
        }
      }
    }
  }
}

// build.targets: "bench:NAME" only where Cargo builds it, and no two targets make one program.
void check_targets(const validator& v, const build_spec& b) {
  static const std::regex bench_re("bench:[A-Za-z0-9_][A-Za-z0-9_-]*");
  std::set<std::string> programs;
  for (size_t i = 0; i < b.targets.size(); ++i) {
    const std::string& t = b.targets[i];
    const std::string where = fmt::format("build.targets[{}]", i);
    if (t.rfind("bench:", 0) == 0) {
      if (!row_of(b.system).bench_targets)
        v.fail(where, fmt::format("\"{}\": only a cargo build has bench targets", t), "name the program the build makes");
      if (!std::regex_match(t, bench_re))
        v.fail(where, fmt::format("\"{}\" is not a Cargo bench target", t), "write \"bench:NAME\", NAME as in [[bench]] or benches/NAME.rs");
    }
    if (!programs.insert(program_of_target(t)).second)
      v.fail(where, fmt::format("\"{}\" makes the program {{bin}}/{} that another target makes", t, program_of_target(t)),
             "keep one target per program name");
  }
}

// Each system's own keys of the `build` object (system_rows()).
void parse_cmake_keys(const validator& v, const json& b, build_spec& out) {
  if (b.contains("generator")) out.generator = v.string(b["generator"], "build.generator");
  if (b.contains("cmake_args")) out.cmake_args = v.strings(b["cmake_args"], "build.cmake_args");
  if (b.contains("bundle_args")) out.bundle_args = v.strings(b["bundle_args"], "build.bundle_args");
  for (size_t i = 0; i < out.bundle_args.size(); ++i)
    if (out.bundle_args[i].rfind("-", 0) != 0)
      v.fail(fmt::format("build.bundle_args[{}]", i), fmt::format("\"{}\" is not a configure option", out.bundle_args[i]),
             "give cmake options, e.g. [\"-DABTEST_CUDA=ON\", \"-DCMAKE_CUDA_ARCHITECTURES=90\"]");
}

void parse_cargo_keys(const validator& v, const json& b, build_spec& out) {
  if (b.contains("profile")) out.profile = v.string(b["profile"], "build.profile");
  static const std::regex profile_re("[A-Za-z][A-Za-z0-9_-]{0,63}");
  if (!std::regex_match(out.profile, profile_re))
    v.fail("build.profile", fmt::format("\"{}\" is not a Cargo profile name", out.profile), "e.g. \"release\"");
  for (const auto& a : out.args)
    if (a.rfind("--features", 0) == 0 || a == "-F" || a.rfind("--target-dir", 0) == 0 || a.rfind("--profile", 0) == 0 ||
        a == "--release")
      v.fail("build.args", fmt::format("\"{}\" is set by abtest", a),
             "remove it: features come from the toggles and build.features, the profile from build.profile, the target "
             "folder is per variant");
    else if (a == "--bin" || a == "--bench" || a == "--bins" || a == "--benches" || a == "-p" || a.rfind("--package", 0) == 0)
      v.fail("build.args", fmt::format("\"{}\" is set by abtest", a),
             "name the programs in build.targets (\"NAME\" for a bin, \"bench:NAME\" for a bench) and the workspace members "
             "in build.packages");
  if (b.contains("packages")) out.packages = v.strings(b["packages"], "build.packages");
  if (b.contains("features")) out.features = v.strings(b["features"], "build.features");
  static const std::regex package_re("[A-Za-z0-9_][A-Za-z0-9_-]*");
  for (size_t i = 0; i < out.packages.size(); ++i)
    if (!std::regex_match(out.packages[i], package_re))
      v.fail(fmt::format("build.packages[{}]", i), fmt::format("\"{}\" is not a Cargo package name", out.packages[i]),
             "name a workspace member, e.g. \"cuzk-bench\"");
  for (size_t i = 0; i < out.features.size(); ++i)
    if (!is_cargo_feature(out.features[i]))
      v.fail(fmt::format("build.features[{}]", i), fmt::format("\"{}\" is not a Cargo feature name", out.features[i]),
             "e.g. \"synth-bench\" or \"cuzk-bench/synth-bench\"");
}

void parse_command_keys(const validator& v, const json& b, build_spec& out) {
  if (!b.contains("command")) v.fail("build.command", "missing", "give the build's argv, e.g. [\"make\", \"-j2\", \"OPT={OPT}\"]");
  out.command = v.strings(b["command"], "build.command");
  if (out.command.empty() || out.command.front().empty()) v.fail("build.command", "is empty", "give the build's argv");
  if (b.contains("bin")) out.bin = v.string(b["bin"], "build.bin");
  if (std::filesystem::path(out.bin).is_absolute() || out.bin.find("..") != std::string::npos)
    v.fail("build.bin", fmt::format("\"{}\" leaves the worktree", out.bin), "give a folder inside the project, e.g. \"out\"");
}

void parse_meson_keys(const validator&, const json&, build_spec&) {}  // build_type and args only, read for all

void parse_build(const validator& v, const json& b, build_spec& out) {
  if (b.contains("system")) {
    const std::string sys = v.string(b["system"], "build.system");
    std::vector<std::string> names;
    for (const auto& r : system_rows()) names.push_back(r.name);
    const auto row = std::find_if(system_rows().begin(), system_rows().end(), [&](const system_row& r) { return r.name == sys; });
    if (row == system_rows().end())
      v.fail("build.system", fmt::format("unknown build system \"{}\"", sys), fmt::format("use one of: {}", fmt::join(names, ", ")));
    out.system = row->system;
  }
  v.only_keys(b, "build", row_of(out.system).keys);
  if (b.contains("build_type")) out.build_type = v.string(b["build_type"], "build.build_type");
  if (b.contains("args")) out.args = v.strings(b["args"], "build.args");
  row_of(out.system).parse(v, b, out);
  if (b.contains("targets")) out.targets = v.strings(b["targets"], "build.targets");
  check_targets(v, out);
  if (b.contains("without_cuda_args")) out.without_cuda_args = v.strings(b["without_cuda_args"], "build.without_cuda_args");
}

// build.command's placeholders: {build_dir} and the `var` toggles' names.
void check_build_command(const validator& v, const manifest& m) {
  for (size_t a = 0; a < m.build.command.size(); ++a) {
    const std::string& arg = m.build.command[a];
    for (std::sregex_iterator it(arg.begin(), arg.end(), placeholder_pattern()), end; it != end; ++it) {
      const std::string name = (*it)[1];
      if (name == "build_dir") continue;
      const bool known = std::any_of(m.toggles.begin(), m.toggles.end(), [&](const toggle_spec& t) {
        const std::string* var = t.kind->command_variable(t);
        return var && *var == name;
      });
      if (!known)
        v.fail(fmt::format("build.command[{}]", a), fmt::format("placeholder {{{}}} is not defined", name),
               "use {build_dir} or the name of a \"var\" toggle");
    }
  }
}

size_t line_of(const std::string& text, size_t byte) {
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + std::min(byte, text.size()), '\n'));
}

json parse_json(const std::string& text, const std::filesystem::path& path) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw usage_error(fmt::format("{}:{}: not valid JSON ({}) — fix the syntax", path.string(), line_of(text, e.byte), e.what()));
  } catch (const json::out_of_range& e) {  // a number too large for a double (found by fuzz_manifest)
    throw usage_error(fmt::format("{}: not valid JSON ({}) — write a smaller number", path.string(), e.what()));
  }
}

void parse_params(const validator& v, const json& root, manifest& m) {
  if (!root.contains("params")) return;
  for (const auto& [key, value] : v.object(root, "params", "params").items()) {
    static const std::regex key_re("[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(key, key_re) || key == "bin" || key == "out")
      v.fail("params." + key, "is not a valid parameter name", "use [A-Za-z_][A-Za-z0-9_]*, and not \"bin\" or \"out\"");
    m.params[key] = v.scalar(value, "params." + key);
  }
}

// Each toggle by its kind (toggles/), then what only the whole list shows: ids and variables
// (option / var / env names) each owned by one toggle.
void parse_toggles(const validator& v, const json& root, manifest& m) {
  if (!root.contains("toggles") || !root["toggles"].is_array())
    v.fail("toggles", "missing or not an array", "list the toggles: [{\"id\": \"A1\", \"option\": \"...\"}, ...]");
  std::set<std::string> ids;
  std::map<std::string, std::string> variables;  // variable → the toggle that owns it
  for (size_t i = 0; i < root["toggles"].size(); ++i) {
    const std::string where = fmt::format("toggles[{}]", i);
    toggle_spec t = parse_toggle(v, root["toggles"][i], where, m.build.system);
    if (!ids.insert(t.id).second) v.fail(where + ".id", fmt::format("duplicate id \"{}\"", t.id), "give each toggle its own id");
    const std::string name = t.kind->variable(t);
    if (!name.empty() && !variables.emplace(name, t.id).second)
      v.fail(where + "." + t.kind->name(), fmt::format("\"{}\" is used by two toggles ({} and {})", name, variables[name], t.id),
             "give each toggle its own variable");
    t.kind->resolve_paths(t, m.dir);
    m.toggles.push_back(std::move(t));
  }
}

// The benchmarks; returns their names.
std::set<std::string> parse_benchmarks(const validator& v, const json& root, manifest& m) {
  if (!root.contains("benchmarks") || !root["benchmarks"].is_array() || root["benchmarks"].empty())
    v.fail("benchmarks", "missing, empty or not an array", "list at least one benchmark");
  std::set<std::string> names;
  for (size_t i = 0; i < root["benchmarks"].size(); ++i) {
    const std::string where = fmt::format("benchmarks[{}]", i);
    benchmark_spec b = parse_benchmark(v, root["benchmarks"][i], where);
    if (!names.insert(b.name).second) v.fail(where + ".name", fmt::format("duplicate benchmark \"{}\"", b.name), "give each benchmark its own name");
    m.benchmarks.push_back(std::move(b));
  }
  return names;
}

// Every `{bin}/NAME` program must be one of the build targets, or it would never be built.
void check_programs_built(const validator& v, const manifest& m) {
  for (size_t i = 0; i < m.benchmarks.size(); ++i) {
    const std::string& prog = m.benchmarks[i].command.front();
    if (prog.rfind("{bin}/", 0) != 0) continue;
    const std::string target = prog.substr(6);
    if (std::none_of(m.build.targets.begin(), m.build.targets.end(), [&](const std::string& t) { return program_of_target(t) == target; }))
      v.fail(fmt::format("benchmarks[{}].command[0]", i), fmt::format("program \"{}\" is not in build.targets", target),
             fmt::format("add \"{}\" to build.targets{}", target,
                         row_of(m.build.system).bench_targets ? fmt::format(" (\"bench:{}\" for a bench target)", target) : ""));
  }
}

reference_spec parse_reference(const validator& v, const json& root, const std::set<std::string>& names) {
  const json& r = v.object(root, "reference", "reference");
  v.only_keys(r, "reference", {"label", "params", "metrics"});
  reference_spec ref;
  if (r.contains("label")) ref.label = v.string(r["label"], "reference.label");
  if (r.contains("params")) {
    for (const auto& [key, value] : v.object(r, "params", "reference.params").items())
      ref.params[key] = v.scalar(value, "reference.params." + key);
  }
  if (!r.contains("metrics") || !r["metrics"].is_object() || r["metrics"].empty())
    v.fail("reference.metrics", "missing or empty", "give the recorded figures, e.g. {\"proof.total_s\": 88.9}");
  for (const auto& [key, value] : r["metrics"].items()) {
    if (!value.is_number() || value.get<double>() <= 0)
      v.fail("reference.metrics." + key, "must be a positive number", "write the recorded value in the metric's unit");
    const auto dot = key.find('.');
    if (dot == std::string::npos || !names.count(key.substr(0, dot)))
      v.fail("reference.metrics." + key, "does not name a metric of a listed benchmark",
             "spell it <benchmark>.<metric>, e.g. proof.total_s");
    ref.metrics[key] = value.get<double>();
  }
  return ref;
}

}  // namespace

const char* to_string(build_system s) { return row_of(s).name; }

bool manifest::needs_worktrees() const {
  return row_of(build.system).in_source ||
         std::any_of(toggles.begin(), toggles.end(), [](const toggle_spec& t) { return t.changes_source(); });
}

bool toggle_spec::has_level(const std::string& level) const {
  return std::find(levels.begin(), levels.end(), level) != levels.end();
}

std::optional<std::string> toggle_spec::value_of(const std::string& level) const {
  if (const auto it = values.find(level); it != values.end()) return it->second;
  return level;
}

const toggle_spec* manifest::find_toggle(const std::string& id) const {
  for (const auto& t : toggles)
    if (t.id == id) return &t;
  return nullptr;
}

const toggle_spec& manifest::toggle(const std::string& id) const {
  if (const auto* t = find_toggle(id)) return *t;
  std::vector<std::string> ids;
  for (const auto& t : toggles) ids.push_back(t.id);
  throw usage_error(fmt::format("unknown toggle \"{}\" — the manifest {} defines: {}", id, path.string(),
                                ids.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(ids, ", "))));
}

const benchmark_spec* manifest::find_benchmark(const std::string& name) const {
  for (const auto& b : benchmarks)
    if (b.name == name) return &b;
  return nullptr;
}

manifest parse_manifest(const std::string& text, const std::filesystem::path& path) {
  validator v(path);
  const json root = parse_json(text, path);
  if (!root.is_object()) v.fail("(top level)", "must be a JSON object", "see design §3 for the format");
  v.only_keys(root, "", {"project", "source_dir", "build", "params", "toggles", "benchmarks", "metrics", "reference"});

  manifest m;
  m.path = std::filesystem::absolute(path).lexically_normal();
  m.dir = m.path.parent_path();
  if (!root.contains("project")) v.fail("project", "missing", "name the project, e.g. \"porep-c2-model\"");
  m.project = v.string(root["project"], "project");
  m.source_dir = (m.dir / (root.contains("source_dir") ? v.string(root["source_dir"], "source_dir") : ".")).lexically_normal();
  if (!m.source_dir.has_filename()) m.source_dir = m.source_dir.parent_path();  // "/p/." normalizes to "/p/"

  if (root.contains("build")) parse_build(v, v.object(root, "build", "build"), m.build);
  parse_params(v, root, m);
  parse_toggles(v, root, m);
  check_build_command(v, m);
  const std::set<std::string> names = parse_benchmarks(v, root, m);
  check_placeholders(v, m);
  m.metric_rules = parse_metric_rules(root, names, path);
  check_programs_built(v, m);
  if (root.contains("reference")) m.reference = parse_reference(v, root, names);
  return m;
}

manifest load_manifest(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw usage_error(fmt::format("cannot read manifest {} — pass --manifest PATH, set ABTEST_MANIFEST, or run from the project folder",
                                  path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  manifest m = parse_manifest(text.str(), path);
  check_sources(m);
  return m;
}

void check_sources(const manifest& m) {
  const validator v(m.path);
  const auto git = [&](std::vector<std::string> args) { return exec::run_git(m.source_dir, args); };
  if (m.needs_worktrees()) {
    const auto top = git({"rev-parse", "--show-toplevel"});
    if (!top.ok)
      v.fail("source_dir", fmt::format("{} is not in a git repository", m.source_dir.string()),
             row_of(m.build.system).in_source
                 ? "a command build runs in a git worktree per variant: `git init && git add -A && git commit` the project first"
                 : "patch and revert toggles build in git worktrees: `git init && git add -A && git commit` the project first");
  }
  for (size_t i = 0; i < m.toggles.size(); ++i) {
    const toggle_spec& t = m.toggles[i];
    t.kind->check_source(v, fmt::format("toggles[{}].{}", i, t.kind->name()), t, m);
  }
}

std::filesystem::path locate_manifest(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("ABTEST_MANIFEST"); env && *env) return env;
  return "abtest.json";
}

std::string expand_placeholders(const std::string& arg, const std::map<std::string, std::string>& values) {
  std::string out;
  auto begin = arg.cbegin();
  for (std::sregex_iterator it(arg.begin(), arg.end(), placeholder_pattern()), end; it != end; ++it) {
    out.append(begin, arg.cbegin() + it->position());
    out += values.at((*it)[1]);
    begin = arg.cbegin() + it->position() + it->length();
  }
  out.append(begin, arg.cend());
  return out;
}

std::vector<std::string> expand_command(const benchmark_spec& bench, const std::filesystem::path& bin,
                                        const std::map<std::string, std::string>& params,
                                        const std::map<std::string, std::filesystem::path>& programs) {
  std::map<std::string, std::string> values = params;
  values["bin"] = bin.string();
  values["out"] = "{out}";  // a fresh path per sample: the executor fills it in
  std::vector<std::string> argv;
  for (const auto& arg : bench.command) {
    // `{bin}/NAME` anywhere (e.g. behind a wrapper: ["taskset", "-c", "1", "{bin}/bench"]).
    if (arg.rfind("{bin}/", 0) == 0) {
      if (const auto it = programs.find(arg.substr(6)); it != programs.end()) {
        argv.push_back(it->second.string());
        continue;
      }
    }
    argv.push_back(expand_placeholders(arg, values));
  }
  return argv;
}

std::vector<std::string> benchmark_programs(const manifest& m, const benchmark_spec& b) {
  std::vector<std::string> out;
  for (size_t i = 0; i < b.command.size(); ++i) {
    const std::string& arg = b.command[i];
    if (arg.rfind("{bin}/", 0) != 0) continue;
    // argv[0] is always a program; later arguments are when they name a build target (a
    // wrapper's program), not a data file in the build folder.
    const std::string name = arg.substr(6);
    const bool target = std::any_of(m.build.targets.begin(), m.build.targets.end(),
                                    [&](const std::string& t) { return program_of_target(t) == name; });
    if ((i == 0 || target) &&
        std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  }
  return out;
}

std::vector<std::string> benchmark_programs(const manifest& m) {
  std::vector<std::string> out;
  for (const auto& b : m.benchmarks)
    for (const auto& name : benchmark_programs(m, b))
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

}  // namespace abtest
