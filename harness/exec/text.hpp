// Small text helpers shared by the exec sources (not part of the public API).
#pragma once

#include <string_view>

namespace abtest::exec::detail {

// `s` without leading and trailing blanks (space, tab, CR, LF).
inline std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace abtest::exec::detail
