// `abtest query SQL`: one read-only statement against the results database, as a table, CSV or JSON.
#include <fmt/format.h>

#include <iostream>

#include "db/error.hpp"
#include "db/query.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"

namespace abtest::cli {
namespace {

std::string text_of(const db::value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
  return std::get<std::string>(v);
}

nlohmann::json json_of(const db::value& v) {
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

}  // namespace

static const registrar query_command(80, [](CLI::App& app, global_options& g, action& act) {
  struct flags {
    std::string sql, format = "table";
  };
  auto f = std::make_shared<flags>();
  auto* cmd = app.add_subcommand("query", "run one read-only SQL statement on the results database");
  cmd->add_option("sql", f->sql, "the statement, e.g. \"SELECT * FROM v_latest_verdict\"")->required();
  cmd->add_option("--format", f->format, "table, csv or json (default table; --json implies json)")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->callback([f, &g, &act] {
    act = [f, &g] {
      const auto path = db_path(g, nullptr);
      if (!std::filesystem::exists(path))
        throw usage_error(fmt::format("no results database at {} — run an experiment first, or pass --db PATH", path.string()));
      db::query_result r;
      try {
        r = db::read_only_query(path, f->sql);
      } catch (const db::error& e) {
        throw usage_error(fmt::format("query refused: {} — `abtest query` only reads; use SELECT (see the views v_*)", e.what()));
      }
      const std::string format = g.json ? "json" : f->format;
      if (format == "json") {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : r.rows) {
          nlohmann::json o = nlohmann::json::object();
          for (size_t i = 0; i < r.columns.size(); ++i) o[r.columns[i]] = json_of(row[i]);
          rows.push_back(std::move(o));
        }
        std::cout << rows.dump(2) << "\n";
      } else if (format == "csv") {
        for (size_t i = 0; i < r.columns.size(); ++i) std::cout << (i ? "," : "") << csv_field(r.columns[i]);
        std::cout << "\r\n";
        for (const auto& row : r.rows) {
          for (size_t i = 0; i < row.size(); ++i) std::cout << (i ? "," : "") << csv_field(text_of(row[i]));
          std::cout << "\r\n";
        }
      } else {
        std::vector<size_t> width(r.columns.size());
        for (size_t i = 0; i < r.columns.size(); ++i) width[i] = r.columns[i].size();
        for (const auto& row : r.rows)
          for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], std::min<size_t>(60, text_of(row[i]).size()));
        for (size_t i = 0; i < r.columns.size(); ++i) std::cout << fmt::format("{:<{}}  ", r.columns[i], width[i]);
        std::cout << "\n";
        for (const auto& row : r.rows) {
          for (size_t i = 0; i < row.size(); ++i) std::cout << fmt::format("{:<{}}  ", text_of(row[i]).substr(0, 60), width[i]);
          std::cout << "\n";
        }
        fmt::print(stderr, "({} row{})\n", r.rows.size(), r.rows.size() == 1 ? "" : "s");
      }
      return 0;
    };
  });
});

}  // namespace abtest::cli
