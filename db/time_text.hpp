// db time text: time points as the UTC ISO-8601 text stored in every *_at column.
#pragma once

#include <string>
#include <string_view>

#include "db/records.hpp"

namespace abtest::db {

/// "2026-12-02T15:45:01.123Z" (millisecond precision, always UTC).
std::string format_utc(time_point t);

/// The inverse of format_utc; also accepts no fraction, and a space for the 'T' (SQLite's
/// datetime()). Throws std::invalid_argument on anything else.
time_point parse_utc(std::string_view text);

}  // namespace abtest::db
