// Tests of the UTC timestamp text stored in the *_at columns.
#include "db/time_text.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace abtest::db {
namespace {

TEST(time_text, formats_utc_with_milliseconds) {
  const time_point t = std::chrono::sys_days{std::chrono::year{2026} / 12 / 2} + std::chrono::hours(15) +
                       std::chrono::minutes(45) + std::chrono::seconds(1) + std::chrono::milliseconds(123) +
                       std::chrono::microseconds(900);  // below a millisecond: truncated
  EXPECT_EQ(format_utc(t), "2026-12-02T15:45:01.123Z");
  EXPECT_EQ(format_utc(time_point{}), "1970-01-01T00:00:00.000Z");
}

TEST(time_text, parses_what_it_formats_and_sqlite_datetime) {
  const time_point t = std::chrono::sys_days{std::chrono::year{2027} / 2 / 28} + std::chrono::hours(23) +
                       std::chrono::minutes(59) + std::chrono::seconds(59) + std::chrono::milliseconds(7);
  EXPECT_EQ(parse_utc(format_utc(t)), t);
  EXPECT_EQ(parse_utc("2027-02-28 23:59:59"), t - std::chrono::milliseconds(7));
  EXPECT_EQ(parse_utc("2027-02-28T23:59:59.5Z"), t - std::chrono::milliseconds(7) + std::chrono::milliseconds(500));
}

TEST(time_text, rejects_other_text) {
  EXPECT_THROW(parse_utc("yesterday"), std::invalid_argument);
  EXPECT_THROW(parse_utc("2027-02-28T23:59:59+02:00"), std::invalid_argument);
  EXPECT_THROW(parse_utc("2027-02-28X23:59:59Z"), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::db
