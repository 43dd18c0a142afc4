// Tests of the record enums' text spellings, which the schema's CHECK constraints also list.
#include "db/records.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

namespace abtest::db {
namespace {

using ::testing::HasSubstr;

template <class E>
void expect_round_trip(std::initializer_list<E> values) {
  for (E v : values) EXPECT_EQ(parse<E>(to_string(v)), v) << to_string(v);
}

TEST(records, every_enum_round_trips_through_its_text) {
  expect_round_trip({build_status::ok, build_status::failed});
  expect_round_trip({experiment_kind::run, experiment_kind::matrix, experiment_kind::bisect, experiment_kind::nightly,
                     experiment_kind::noise_floor, experiment_kind::check});
  expect_round_trip({experiment_status::running, experiment_status::complete, experiment_status::incomplete,
                     experiment_status::failed});
  expect_round_trip({arm_role::baseline, arm_role::candidate});
  expect_round_trip({sample_status::ok, sample_status::failed, sample_status::timeout, sample_status::crashed,
                     sample_status::no_metrics, sample_status::bad_output});
  expect_round_trip({verdict_kind::slower, verdict_kind::faster, verdict_kind::same, verdict_kind::inconclusive,
                     verdict_kind::invalid});
  expect_round_trip({changepoint_state::new_, changepoint_state::acknowledged, changepoint_state::fixed,
                     changepoint_state::false_positive});
}

TEST(records, spellings_match_the_contract) {
  EXPECT_EQ(to_string(experiment_kind::noise_floor), "noise-floor");
  EXPECT_EQ(to_string(changepoint_state::new_), "new");
  EXPECT_EQ(to_string(verdict_kind::inconclusive), "inconclusive");
  EXPECT_EQ(to_string(sample_status::no_metrics), "no_metrics");
}

TEST(records, unknown_text_names_the_accepted_spellings) {
  try {
    parse<verdict_kind>("SLOWER");
    FAIL() << "parsed upper case";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown verdict 'SLOWER'"));
    EXPECT_THAT(e.what(), HasSubstr("slower, faster, same, inconclusive, invalid"));
  }
}

}  // namespace
}  // namespace abtest::db
