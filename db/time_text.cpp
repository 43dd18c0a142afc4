// db time text: formatting and parsing UTC ISO-8601 timestamps with millisecond precision.
#include "db/time_text.hpp"

#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace abtest::db {

std::string format_utc(time_point t) {
  const auto ms = std::chrono::floor<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  const int millis = static_cast<int>(ms - static_cast<long long>(seconds) * 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];  // room for any int the format could print
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return text;
}

time_point parse_utc(std::string_view text) {
  const std::string s{text};
  std::tm tm{};
  char sep = 0;
  int consumed = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &sep, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &consumed) != 7 ||
      (sep != 'T' && sep != ' '))
    throw std::invalid_argument("bad timestamp '" + s + "' — expected YYYY-MM-DDTHH:MM:SS[.mmm]Z");
  int millis = 0;
  std::string_view rest = std::string_view(s).substr(static_cast<std::size_t>(consumed));
  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    int digits = 0;
    for (; !rest.empty() && rest.front() >= '0' && rest.front() <= '9'; rest.remove_prefix(1), ++digits)
      if (digits < 3) millis = millis * 10 + (rest.front() - '0');
    for (; digits < 3; ++digits) millis *= 10;
  }
  if (!rest.empty() && rest.front() == 'Z') rest.remove_prefix(1);
  if (!rest.empty()) throw std::invalid_argument("bad timestamp '" + s + "' — expected YYYY-MM-DDTHH:MM:SS[.mmm]Z");
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&tm)) + std::chrono::milliseconds(millis);
}

}  // namespace abtest::db
