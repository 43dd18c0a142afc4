// Tests of alerts::close_recovered on a real store: a nightly alert closes as fixed once every metric
// with a series is back for two nights, with a note that names the levels; others stay open.
#include "harness/alerts/sightings.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace abtest::alerts {
namespace {

namespace fs = std::filesystem;

class close_recovered_test : public ::testing::Test {
 protected:
  close_recovered_test() : dir_(make_dir()), store_(dir_ / "results.db") {}
  ~close_recovered_test() override { fs::remove_all(dir_); }
  static fs::path make_dir() {
    std::string p = (fs::temp_directory_path() / "abtest-alerts-XXXXXX").string();
    if (!mkdtemp(p.data())) std::abort();
    return p;
  }
  std::int64_t open(const std::string& variant, const std::string& metric, const std::string& night) {
    return store_.record_sightings(std::vector{nightly_sighting({variant, metric, night, "", 1.2, 1.15, 1.25, 10.0, 12.0})}).front();
  }
  fs::path dir_;
  db::results_store store_;
};

std::vector<night_median> nights(std::initializer_list<double> medians) {
  std::vector<night_median> out;
  int i = 0;
  for (const double m : medians) out.push_back({"n-" + std::to_string(++i), m});
  return out;
}

TEST_F(close_recovered_test, back_for_two_nights_closes_as_fixed) {
  const auto id = open("A1", "proof.total_s", "n-3");
  EXPECT_TRUE(close_recovered(store_, "A1", {{"proof.total_s", nights({10, 10, 12, 12, 10.1})}}).empty());
  EXPECT_EQ(store_.find_alert(id)->state, db::alert_state::new_);
  EXPECT_EQ(close_recovered(store_, "A1", {{"proof.total_s", nights({10, 10, 12, 12, 10.1, 9.9})}}),
            std::vector<std::int64_t>{id});
  const auto a = store_.find_alert(id);
  EXPECT_EQ(a->state, db::alert_state::fixed);
  EXPECT_NE(a->events.back().note.find("proof.total_s 9.9"), std::string::npos) << a->events.back().note;
  EXPECT_TRUE(close_recovered(store_, "A1", {{"proof.total_s", nights({10, 10, 12, 12, 10.1, 9.9})}}).empty())
      << "a fixed alert is not closed twice";
}

TEST_F(close_recovered_test, every_metric_of_the_change_must_be_back) {
  const auto id = open("A1", "proof.total_s", "n-2");
  EXPECT_EQ(open("A1", "proof.msm_h_s", "n-2"), id);
  const std::map<std::string, std::vector<night_median>> series{{"proof.total_s", nights({10, 12, 10, 10})},
                                                                {"proof.msm_h_s", nights({10, 12, 12, 12})}};
  EXPECT_TRUE(close_recovered(store_, "A1", series).empty());
  EXPECT_TRUE(close_recovered(store_, "B1", {{"proof.total_s", nights({10, 12, 10, 10})}}).empty()) << "another variant";
  EXPECT_EQ(store_.find_alert(id)->state, db::alert_state::new_);
}

TEST_F(close_recovered_test, the_benchmark_is_the_metric_prefix) {
  EXPECT_EQ(benchmark_of("proof.total_s"), "proof");
  EXPECT_EQ(benchmark_of("synth.synthesize_porep_tiny_s"), "synth");
  EXPECT_EQ(benchmark_of("plain"), "plain");
}

}  // namespace
}  // namespace abtest::alerts
