// Test helper: a temporary folder holding a real results database and scenario files, for tests of
// the experiment library that measure on the simulated source (design §12) — no CLI, no build.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/search/scenario.hpp"

namespace abtest::test {

class scenario_store : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("abtest-scenario-store-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
    store_.emplace(dir_ / "results.db");
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Writes `text` as <dir>/<name>.json and returns its path.
  std::filesystem::path write_scenario(const std::string& name, const std::string& text) const {
    const auto path = dir_ / (name + ".json");
    std::ofstream(path) << text;
    return path;
  }

  // An experiment of `plan` (config plus `extra`), its rounds measured on `scenario`'s model and
  // concluded: samples and verdicts stored.
  std::string measured(const search::scenario& scenario, const manifest& m, const run_plan& plan,
                       const nlohmann::json& extra = nlohmann::json::object()) {
    const std::string id = create_experiment(*store_, &m, plan, "test", current_machine(*store_), extra);
    std::vector<sample> samples;
    simulated_source source(scenario, plan);
    execute(*store_, m, plan, id, source, samples, ctx_);
    return id;
  }

  std::filesystem::path dir_;
  std::optional<db::results_store> store_;
  experiment_context ctx_{.verbose = 0, .on_progress = {}, .stop_between_rounds = {}};  // silent
};

}  // namespace abtest::test
