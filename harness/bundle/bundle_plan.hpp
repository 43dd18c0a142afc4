// A bundle's plan.json (design §3.2): the experiment built here and measured elsewhere — arms with
// their programs inside the bundle folder, the RMIT schedule, the benchmarks, every file's digest.
//
//   const auto bp = bundle::read_plan(dir / "plan.json");   // plan_error: newer schema, bad plan
//   manifest m = bp.as_manifest(dir);                       // what the executor needs
//   run_plan plan = bp.resolved(dir);                       // {bin} and programs inside dir
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"

namespace abtest::bundle {

// plan.json's schema. A runner refuses a plan of a newer one (the runner and its plan come
// together: a newer plan beside an older runner is a mixed-up folder).
inline constexpr int plan_schema = 1;

// A plan that cannot be run as written: its schema, a missing key, a schedule that differs from the
// one its seed gives.
class plan_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct bundle_plan {
  int schema = plan_schema;
  std::string experiment_id;     // the experiment's id here and in the runner's results
  std::string project;
  std::string command_line;      // the `abtest run … --bundle DIR` that made it
  std::string created_at;        // ISO 8601 UTC
  run_plan plan;                 // arms' `bin` and `programs` relative to the bundle folder
  std::vector<benchmark_spec> benchmarks;  // those plan.benchmarks names, as the manifest gave them
  std::vector<toggle_spec> toggles;        // id, levels, requires
  std::map<std::string, std::string> files;  // every program and library: path in the folder → sha256
  nlohmann::json config = nlohmann::json::object();  // added to the experiment's config (a matrix's design)

  // With "schedule" (every round's order, for people and for the check) and per arm "commands"
  // (each benchmark's argv, {bin} resolved inside the folder), which from_json checks, not reads.
  nlohmann::json to_json() const;
  static bundle_plan from_json(const nlohmann::json& j);

  // The manifest the executor takes: these benchmarks, toggles and params; `dir` is the folder,
  // where the benchmarks run.
  manifest as_manifest(const std::filesystem::path& dir) const;
  // The plan with every path made absolute inside `dir`, and each arm's benchmarks given
  // LD_LIBRARY_PATH=<dir>/lib, where the programs' shared libraries are.
  run_plan resolved(const std::filesystem::path& dir) const;
  // The capabilities (`requires`) of the toggles the arms set to a non-off level, e.g. {"cuda"},
  // with the toggles that need each.
  std::map<std::string, std::vector<std::string>> required_caps() const;
};

// Reads and checks plan.json; plan_error says what is wrong and what to do.
bundle_plan read_plan(const std::filesystem::path& file);

}  // namespace abtest::bundle
