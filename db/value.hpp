// db::value: one SQLite value as a C++ variant, as returned by read-only queries.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace abtest::db {

/// NULL, INTEGER, REAL or TEXT. BLOBs are returned as TEXT in SQL literal form (x'0a1b').
using value = std::variant<std::monostate, std::int64_t, double, std::string>;

/// The columns and rows of one query, for the CLI to format as table, CSV or JSON.
struct query_result {
  std::vector<std::string> columns;
  std::vector<std::vector<value>> rows;
};

}  // namespace abtest::db
