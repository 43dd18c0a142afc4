// Tests of the sample status names (they are stored in the results database).
#include "harness/sample/sample.hpp"

#include <gtest/gtest.h>

namespace abtest {
namespace {

TEST(sample_status_names, round_trip_every_status) {
  for (auto s : {sample_status::ok, sample_status::failed, sample_status::timeout, sample_status::crashed,
                 sample_status::no_metrics, sample_status::bad_output}) {
    const auto parsed = parse_sample_status(to_string(s));
    ASSERT_TRUE(parsed.has_value()) << to_string(s);
    EXPECT_EQ(*parsed, s);
  }
  EXPECT_EQ(to_string(sample_status::no_metrics), "no_metrics");
  EXPECT_EQ(to_string(sample_status::bad_output), "bad_output");
}

TEST(sample_status_names, unknown_text_is_rejected) {
  EXPECT_FALSE(parse_sample_status("OK").has_value());
  EXPECT_FALSE(parse_sample_status("").has_value());
  EXPECT_FALSE(parse_sample_status("success").has_value());
}

}  // namespace
}  // namespace abtest
