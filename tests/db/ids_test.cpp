// Tests of the UUID and experiment-id generators.
#include "db/ids.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace abtest::db {
namespace {

TEST(ids, uuids_are_version_4_and_distinct) {
  const std::regex form{"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"};
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string uuid = new_uuid();
    EXPECT_TRUE(std::regex_match(uuid, form)) << uuid;
    seen.insert(uuid);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(ids, experiment_ids_carry_kind_and_utc_time) {
  const time_point t = std::chrono::sys_days{std::chrono::year{2026} / 12 / 2} + std::chrono::hours(15) +
                       std::chrono::minutes(45) + std::chrono::seconds(1);
  const std::regex run_id{"r-20261202-154501-[0-9a-f]{8}"};
  EXPECT_TRUE(std::regex_match(new_experiment_id(experiment_kind::run, t), run_id));
  EXPECT_EQ(new_experiment_id(experiment_kind::noise_floor, t).substr(0, 2), "f-");
  EXPECT_EQ(new_experiment_id(experiment_kind::nightly, t).substr(0, 2), "n-");
  EXPECT_EQ(new_experiment_id(experiment_kind::check, t).substr(0, 2), "c-");
}

// Ids started in one second differ: a nightly run starts tens of experiments a second. 500 of them
// with 16 random bits would share an id with probability ≈ 85% (1 − e^(−500²/2¹⁷)); with 32, ≈ 3·10⁻⁵.
TEST(ids, experiment_ids_of_one_second_are_distinct) {
  const time_point t = std::chrono::sys_days{std::chrono::year{2026} / 12 / 5};
  std::set<std::string> seen;
  for (int i = 0; i < 500; ++i) seen.insert(new_experiment_id(experiment_kind::bisect, t));
  EXPECT_EQ(seen.size(), 500u);
}

}  // namespace
}  // namespace abtest::db
