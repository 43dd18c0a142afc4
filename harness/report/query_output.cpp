// One statement's rows as `abtest query` prints them: a table, CSV, or JSON.
#include "harness/report/query_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <variant>
#include <vector>

namespace abtest::report {
namespace {

std::string cell_text(const db::value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
  return std::get<std::string>(v);
}

nlohmann::json cell_json(const db::value& v) {
  if (std::holds_alternative<std::monostate>(v)) return nullptr;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return std::get<std::string>(v);
}

// RFC 4180: quote fields holding a comma, quote or line break; double inner quotes.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

nlohmann::json rows_json(const db::query_result& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json o = nlohmann::json::object();
    for (std::size_t i = 0; i < r.columns.size(); ++i) o[r.columns[i]] = cell_json(row[i]);
    rows.push_back(std::move(o));
  }
  return rows;
}

std::string rows_csv(const db::query_result& r) {
  std::string out;
  for (std::size_t i = 0; i < r.columns.size(); ++i) out += (i ? "," : "") + csv_field(r.columns[i]);
  out += "\r\n";
  for (const auto& row : r.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_field(cell_text(row[i]));
    out += "\r\n";
  }
  return out;
}

std::string rows_table(const db::query_result& r) {
  std::vector<std::size_t> width(r.columns.size());
  for (std::size_t i = 0; i < r.columns.size(); ++i) width[i] = r.columns[i].size();
  for (const auto& row : r.rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], std::min<std::size_t>(60, cell_text(row[i]).size()));
  std::string out;
  for (std::size_t i = 0; i < r.columns.size(); ++i) out += fmt::format("{:<{}}  ", r.columns[i], width[i]);
  out += "\n";
  for (const auto& row : r.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out += fmt::format("{:<{}}  ", cell_text(row[i]).substr(0, 60), width[i]);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render(const query_rows& q, format f) {
  if (f == format::json) return rows_json(q.result).dump(2) + "\n";
  if (f == format::terminal) return q.layout == query_layout::csv ? rows_csv(q.result) : rows_table(q.result);
  throw std::invalid_argument("query has no markdown or HTML output — use --format table, csv or json");
}

}  // namespace abtest::report
