// Tests of the unit prices a bisection is planned with: a scenario's, and the builds a real store recorded.
#include "harness/experiment/unit_costs.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "harness/experiment/experiment.hpp"
#include "tests/harness/experiment/build_rows.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

class unit_costs_test : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("abtest-unit-costs-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    store_.emplace(dir_ / "results.db");
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }
  void build(const std::string& key, double seconds, db::build_status status, bool configured) {
    store_->insert_build(test::build_row(dir_, key, seconds, status, current_machine(*store_), configured));
  }

  fs::path dir_;
  std::optional<db::results_store> store_;
};

TEST_F(unit_costs_test, a_scenario_prices_its_builds_and_runs_itself) {
  const search::scenario s = search::parse_scenario(nlohmann::json::parse(R"({
    "toggles": [{"id": "A"}], "metrics": {"proof.total_s": {"base": 88.9, "noise_cv": 0.02}}, "build_s": 60})"));
  const search::unit_costs u = recorded_costs(*store_, "proof.total_s", &s);
  EXPECT_DOUBLE_EQ(u.build_s, 60.0);
  EXPECT_DOUBLE_EQ(u.run_s, 88.9) << "a time metric's base is the run's wall";
  EXPECT_DOUBLE_EQ(u.sigma, std::log1p(0.02)) << "no noise-floor yet: 2% assumed, not the scenario's truth";
  EXPECT_NE(u.basis.find("assumed"), std::string::npos) << u.basis;
}

TEST_F(unit_costs_test, builds_are_priced_at_each_variants_fresh_build) {
  EXPECT_DOUBLE_EQ(recorded_costs(*store_, "proof.total_s", nullptr).build_s, 0.0);
  EXPECT_NE(recorded_costs(*store_, "proof.total_s", nullptr).basis.find("no build recorded"), std::string::npos);
  build("base", 100.0, db::build_status::ok, true);
  build("base", 5.0, db::build_status::ok, false);  // incremental: not what a new variant folder costs
  build("A", 40.0, db::build_status::ok, true);
  build("B", 60.0, db::build_status::ok, true);
  build("C", 1.0, db::build_status::failed, true);  // a failed build says nothing of a good one
  const search::unit_costs u = recorded_costs(*store_, "proof.total_s", nullptr);
  EXPECT_DOUBLE_EQ(u.build_s, 60.0) << "the median of 100, 40 and 60";
  EXPECT_NE(u.basis.find("3 variants"), std::string::npos) << u.basis;
}

}  // namespace
}  // namespace abtest
