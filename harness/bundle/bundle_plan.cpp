// plan.json of a bundle: its JSON form, the checks a runner makes on reading it, and the manifest and
// plan the executor takes from it.
#include "harness/bundle/bundle_plan.hpp"

#include <fmt/format.h>

#include <fstream>
#include <set>

#include "harness/exec/format.hpp"

namespace abtest::bundle {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json benchmark_json(const benchmark_spec& b) {
  json j = {{"name", b.name},           {"format", b.format},
            {"command", b.command},     {"timeout_s", b.timeout_s},
            {"warmups", b.warmups},     {"ok_exit_codes", b.ok_exit_codes}};
  for (const auto& [key, value] : b.format_options.items()) j[key] = value;  // as the manifest writes them
  return j;
}

benchmark_spec benchmark_from(const json& j) {
  benchmark_spec b;
  b.name = j.at("name").get<std::string>();
  b.format = j.at("format").get<std::string>();
  const exec::output_format_row* row = exec::find_output_format(b.format);
  if (row == nullptr)
    throw plan_error(fmt::format("benchmark {}: unknown format {} — this abtest knows {}; run the bundle with the abtest "
                                 "that made it", b.name, j.at("format").dump(), exec::output_format_names()));
  try {
    b.format_options = row->options(j);
  } catch (const exec::format_key_error& e) {
    throw plan_error(fmt::format("benchmark {}: {}: {} — {}", b.name, e.key, e.what, e.fix));
  }
  b.command = j.at("command").get<std::vector<std::string>>();
  b.timeout_s = j.at("timeout_s").get<double>();
  b.warmups = j.at("warmups").get<int>();
  b.ok_exit_codes = j.at("ok_exit_codes").get<std::vector<int>>();
  b.counts.enabled = false;
  return b;
}

json schedule_json(const run_plan& plan) {
  json rounds = json::array();
  auto add = [&](int round, bool warmup) {
    json order = json::array();
    for (const auto& s : round_slots(plan, round, warmup)) order.push_back({plan.arms[s.arm].key, s.benchmark});
    rounds.push_back({{"round", round}, {"warmup", warmup}, {"order", order}});
  };
  for (int w = 1; w <= plan.warmups; ++w) add(w, true);
  for (int r = 1; r <= plan.rounds; ++r) add(r, false);
  return rounds;
}

}  // namespace

json bundle_plan::to_json() const {
  json benches = json::array(), toggle_list = json::array(), arms = json::array();
  for (const auto& b : benchmarks) benches.push_back(benchmark_json(b));
  for (const auto& t : toggles) toggle_list.push_back({{"id", t.id}, {"levels", t.levels}, {"requires", t.requires_caps}});
  for (const auto& a : plan.arms) {
    json commands = json::object();
    std::map<std::string, fs::path> programs(a.programs.begin(), a.programs.end());
    for (const auto& b : benchmarks) commands[b.name] = expand_command(b, a.bin, plan.params, programs);
    arms.push_back({{"key", a.key}, {"digest", a.binaries_digest}, {"commands", commands}});
  }
  return {{"abtest_bundle", "plan"}, {"schema", schema},         {"experiment", experiment_id},
          {"project", project},     {"command_line", command_line}, {"created_at", created_at},
          {"plan", plan.to_json()}, {"benchmarks", benches},      {"toggles", toggle_list},
          {"arms", arms},           {"files", files},             {"schedule", schedule_json(plan)},
          {"config", config}};
}

bundle_plan bundle_plan::from_json(const json& j) {
  if (!j.is_object() || j.value("abtest_bundle", "") != "plan")
    throw plan_error("this is not a bundle's plan.json (no \"abtest_bundle\": \"plan\") — make one with `abtest run … --bundle DIR`");
  bundle_plan p;
  p.schema = j.value("schema", 0);
  if (p.schema > plan_schema)
    throw plan_error(fmt::format("plan.json is of schema {} and this runner reads schema {} at most — the runner and its plan "
                                 "come together: copy the whole bundle folder again, or make it again with `abtest … --bundle`",
                                 p.schema, plan_schema));
  if (p.schema < 1) throw plan_error(fmt::format("plan.json has no valid schema ({}) — make the bundle again", j.value("schema", json()).dump()));
  try {
    p.experiment_id = j.at("experiment").get<std::string>();
    p.project = j.value("project", "");
    p.command_line = j.value("command_line", "");
    p.created_at = j.value("created_at", "");
    p.plan = run_plan::from_json(j.at("plan"));
    for (const auto& b : j.at("benchmarks")) p.benchmarks.push_back(benchmark_from(b));
    for (const auto& t : j.at("toggles")) {
      toggle_spec spec;
      spec.id = t.at("id").get<std::string>();
      spec.levels = t.at("levels").get<std::vector<std::string>>();
      spec.requires_caps = t.value("requires", std::vector<std::string>{});
      p.toggles.push_back(std::move(spec));
    }
    p.files = j.at("files").get<std::map<std::string, std::string>>();
    p.config = j.value("config", nlohmann::json::object());
  } catch (const json::exception& e) {
    throw plan_error(fmt::format("plan.json is incomplete ({}) — make the bundle again with `abtest … --bundle`", e.what()));
  }
  for (const auto& name : p.plan.benchmarks)
    if (std::none_of(p.benchmarks.begin(), p.benchmarks.end(), [&](const benchmark_spec& b) { return b.name == name; }))
      throw plan_error(fmt::format("plan.json runs benchmark {} but does not describe it — make the bundle again", name));
  // The order each round runs in comes from the seed (plan.cpp, round_slots): a plan whose written
  // schedule differs was made by another version of that rule, and would not run as it says.
  if (j.contains("schedule") && j["schedule"] != schedule_json(p.plan))
    throw plan_error("plan.json's schedule is not the one its seed gives with this runner — the runner and its plan come "
                     "together: copy the whole bundle folder again");
  return p;
}

manifest bundle_plan::as_manifest(const fs::path& dir) const {
  manifest m;
  m.path = dir / "plan.json";
  m.dir = dir;
  m.source_dir = dir;
  m.project = project;
  m.params = plan.params;
  m.toggles = toggles;
  m.benchmarks = benchmarks;
  return m;
}

run_plan bundle_plan::resolved(const fs::path& dir) const {
  run_plan p = plan;
  std::string library_path = (dir / "lib").string();
  if (const char* inherited = std::getenv("LD_LIBRARY_PATH"); inherited && *inherited) library_path += std::string(":") + inherited;
  for (auto& a : p.arms) {
    a.bin = dir / a.bin;
    for (auto& [_, file] : a.programs) file = dir / file;
    a.env["LD_LIBRARY_PATH"] = library_path;
    a.build_id.reset();  // the builds are recorded where the bundle was made
  }
  return p;
}

std::map<std::string, std::vector<std::string>> bundle_plan::required_caps() const {
  std::map<std::string, std::vector<std::string>> caps;
  std::set<std::string> on;
  for (const auto& a : plan.arms)
    for (const auto& [id, _] : a.levels) on.insert(id);
  for (const auto& t : toggles)
    if (on.count(t.id))
      for (const auto& cap : t.requires_caps) caps[cap].push_back(t.id);
  return caps;
}

bundle_plan read_plan(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw plan_error(fmt::format("cannot read {} — run the runner that sits in the bundle folder", file.string()));
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw plan_error(fmt::format("{} is not valid JSON ({}) — copy the bundle folder again", file.string(), e.what()));
  }
  return bundle_plan::from_json(j);
}

}  // namespace abtest::bundle
