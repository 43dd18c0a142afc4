// `abtest init` on Cargo: `cargo metadata --no-deps` for the workspace's members, features and
// targets; each bin and bench a benchmark, each bench read through the format of its harness.
#include "harness/builder/cargo_probe.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/builder/file_text.hpp"
#include "harness/builder/toggle_ids.hpp"
#include "harness/core/errors.hpp"
#include "harness/exec/process.hpp"

namespace abtest {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
namespace {

// A program name as a benchmark name: [a-z0-9_], starting with a letter, at most 32 characters.
std::string benchmark_name(const std::string& program) {
  std::string name;
  for (char c : program) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "b_" + name;
  return name.substr(0, 32);
}

json cargo_metadata(const fs::path& source) {
  exec::process_options o;
  o.hardware_counters = false;
  o.timeout_s = 120;
  o.working_dir = source;  // Cargo reads the project's .cargo/config.toml from here
  o.argv = {"cargo", "metadata", "--no-deps", "--format-version", "1", "--offline", "--manifest-path", (source / "Cargo.toml").string()};
  const auto r = exec::run_process(o);
  if (r.started && r.exit_code == 0 && !r.out.truncated)
    if (auto j = json::parse(r.out.head, nullptr, false); j.is_object() && j.contains("packages")) return j;
  throw user_error(exit_code::usage,
                   fmt::format("`{}` failed, so the crate's members and targets are not known:\n{}\n— fix Cargo.toml (or install "
                               "cargo: apt-get install cargo), then run `abtest init` again",
                               fmt::join(o.argv, " "), last_lines(r.started ? r.err.head : r.error, 15)));
}

// `j[key]` where it is there, else an empty array (or object): cargo metadata's optional fields.
const json& field(const json& j, const char* key, bool object = false) {
  static const json no_array = json::array(), no_object = json::object();
  const auto it = j.find(key);
  return it != j.end() && (object ? it->is_object() : it->is_array()) ? *it : object ? no_object : no_array;
}

bool depends_on(const json& package, const std::string& crate) {
  for (const auto& dep : field(package, "dependencies"))
    if (dep.value("name", "") == crate) return true;
  return false;
}

const char* format_of(bench_harness h) {
  switch (h) {
    case bench_harness::criterion: return "criterion";
    case bench_harness::divan: return "divan";
    case bench_harness::bencher:
    case bench_harness::libtest: return "libtest";
    case bench_harness::own: return "json";
  }
  return "json";
}

}  // namespace

void probe_cargo(const fs::path& source, const std::function<void(std::string_view)>& say, project_draft& d) {
  say(fmt::format("init: asking cargo for the members and targets of {} (cargo metadata --no-deps)", source.string()));
  const json meta = cargo_metadata(source);
  const fs::path root_toml = fs::weakly_canonical(source / "Cargo.toml");
  std::vector<const json*> packages;
  const json* root = nullptr;
  for (const auto& p : field(meta, "packages")) {
    packages.push_back(&p);
    if (fs::weakly_canonical(p.value("manifest_path", "")) == root_toml) root = &p;
  }
  // A workspace: features are named member?/feature and the build selects members with -p.
  const bool workspace = packages.size() > 1 || root == nullptr;
  d.manifest["project"] = root ? root->value("name", source.filename().string()) : source.filename().string();
  d.manifest["build"] = {{"system", "cargo"}, {"profile", "release"}, {"args", {"--offline"}}};
  d.guessed.push_back("--offline in build.args: remove it if the machine that measures reaches a crates registry");
  if (workspace) {
    std::vector<std::string> names;
    for (const auto* p : packages) names.push_back(p->value("name", ""));
    d.guessed.push_back(fmt::format("a Cargo workspace of {} member(s): {}{}", packages.size(), fmt::join(names, ", "),
                                    root ? "" : " (a virtual manifest)"));
  }
  // A member's feature in a workspace: member?/feature. Cargo 1.65 reads member/feature as a
  // feature of the dependency `member` wherever a selected package has one, and an optional
  // dependency enabled only through "dep:member" refuses it; the weak form works on every Cargo,
  // whether the member is selected or not.
  const auto qualified = [&](const json& p, const std::string& feature) {
    return workspace ? fmt::format("{}?/{}", p.value("name", ""), feature) : feature;
  };
  json benchmarks = json::array(), targets = json::array();
  std::set<std::string> programs, required, used_packages;
  std::vector<std::string> own_output;
  for (const auto* p : packages) {
    const std::string toml = read_text_file(p->value("manifest_path", ""));
    const bench_libraries libraries{depends_on(*p, "criterion"), depends_on(*p, "divan"), depends_on(*p, "bencher")};
    for (const auto& t : field(*p, "targets")) {
      const json& kinds = field(t, "kind");
      const bool bin = std::find(kinds.begin(), kinds.end(), "bin") != kinds.end();
      const bool bench = std::find(kinds.begin(), kinds.end(), "bench") != kinds.end();
      if (!bin && !bench) continue;
      const std::string name = t.value("name", "");
      if (!programs.insert(name).second) {
        d.left_out.push_back(fmt::format("{} {} of {} (another target already makes the program {{bin}}/{})", bench ? "bench" : "bin",
                                         name, p->value("name", ""), name));
        continue;
      }
      json command = {"{bin}/" + name};
      std::string format = "json";
      if (bench) {
        const auto h = bench_harness_of(bench_harness_off(toml, name), libraries);
        format = format_of(h);
        if (h == bench_harness::criterion) {
          for (const char* a : criterion_sample_args) command.push_back(a);
          d.guessed.push_back(fmt::format("bench {} of {}: Criterion (criterion in its dependencies, harness = false); one abtest "
                                          "sample is one short Criterion run: {}",
                                          name, p->value("name", ""), fmt::join(std::next(command.begin()), command.end(), " ")));
        } else if (h == bench_harness::libtest || h == bench_harness::divan || h == bench_harness::bencher) {
          command.push_back("--bench");
          d.guessed.push_back(fmt::format("bench {} of {}: {}", name, p->value("name", ""),
                                          h == bench_harness::divan     ? "divan (divan in its dependencies, harness = false)"
                                          : h == bench_harness::bencher ? "bencher, libtest's output (bencher in its dependencies, harness = false)"
                                                                        : "libtest's #[bench] (the default harness)"));
        } else {
          own_output.push_back(name);
        }
      } else {
        own_output.push_back(name);
      }
      used_packages.insert(p->value("name", ""));
      for (const auto& f : field(t, "required-features")) required.insert(qualified(*p, f.get<std::string>()));
      targets.push_back(bench ? "bench:" + name : name);
      benchmarks.push_back({{"name", benchmark_name(name)}, {"format", format}, {"command", command}});
    }
  }
  if (workspace && !used_packages.empty()) d.manifest["build"]["packages"] = used_packages;
  if (!required.empty()) {
    d.manifest["build"]["features"] = required;
    d.guessed.push_back(fmt::format("build.features {}: the programs' required-features, on in every variant", fmt::join(required, ", ")));
  }

  // Toggles: every member's features but "default" and those the programs require.
  std::vector<std::string> taken;
  json toggles = json::array();
  for (const auto* p : packages)
    for (const auto& [f, _] : field(*p, "features", true).items()) {
      if (f == "default") continue;
      const std::string feature = qualified(*p, f);
      if (required.count(feature)) {
        d.left_out.push_back(fmt::format("{} (required by a benchmark program: on in every variant, build.features)", feature));
        continue;
      }
      toggles.push_back({{"id", toggle_id_for(f, "", taken)}, {"feature", feature}});
    }
  d.manifest["toggles"] = toggles;
  d.guessed.push_back(fmt::format("{} toggle(s) from Cargo features (their ids are listed above){}", toggles.size(),
                                  workspace ? "; member?/feature names a member's feature" : ""));
  d.manifest["build"]["targets"] = targets;
  json build = json::object();  // keys in the order a reader expects
  for (const char* k : {"system", "profile", "packages", "features", "targets", "args"})
    if (d.manifest["build"].contains(k)) build[k] = d.manifest["build"][k];
  d.manifest["build"] = build;
  d.manifest["benchmarks"] = benchmarks;
  if (!own_output.empty())
    d.to_do.push_back(fmt::format("check each benchmark's command and format ({}): \"json\" expects one JSON object with \"metrics\" "
                                  "on stdout; use \"lines\" with a pattern for printed timings", fmt::join(own_output, ", ")));
}

}  // namespace abtest
