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
#include "harness/core/manifest_benchmark.hpp"
#include "harness/core/manifest_build.hpp"
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
                         has_bench_targets(m.build.system) ? fmt::format(" (\"bench:{}\" for a bench target)", target) : ""));
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

bool manifest::needs_worktrees() const {
  return builds_in_source(build.system) ||
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
    const std::string fix = builds_in_source(m.build.system)
                                ? "a command build runs in a git worktree per variant: `git init && git add -A && git commit` the project first"
                                : "patch and revert toggles build in git worktrees: `git init && git add -A && git commit` the project first";
    if (!git({"rev-parse", "--show-toplevel"}).ok)
      v.fail("source_dir", fmt::format("{} is not in a git repository", m.source_dir.string()), fix);
    // A repository just made by `git init` has no commit for a worktree to check out.
    if (!git({"rev-parse", "--verify", "--quiet", "HEAD^{commit}"}).ok)
      v.fail("source_dir", fmt::format("the git repository of {} has no commit yet", m.source_dir.string()), fix);
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
