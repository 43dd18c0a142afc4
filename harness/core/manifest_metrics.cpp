// Reads the manifest's `better` / `margin` declarations into metric rules (see manifest_metrics.hpp).
#include "harness/core/manifest_metrics.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "harness/core/errors.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& key, const std::string& what, const std::string& fix) {
  throw usage_error(fmt::format("{}: {}: {} — {}", file.string(), key, what, fix));
}

// `better` and `margin` of one declaration, wherever it sits.
void read_fields(const json& j, const std::string& where, const std::filesystem::path& file, stats::metric_rule& rule) {
  if (j.contains("better")) {
    const json& b = j["better"];
    const auto d = b.is_string() ? stats::parse_better(b.get<std::string>()) : std::nullopt;
    if (!d) fail(file, where + ".better", fmt::format("must be \"lower\" or \"higher\", found {}", b.dump()),
                 "write \"higher\" for a rate (items/s, MB/s), \"lower\" for a time, size or count");
    rule.direction = d;
  }
  if (j.contains("margin")) {
    const json& m = j["margin"];
    if (!m.is_number() || !(m.get<double>() >= 0 && m.get<double>() < 100))
      fail(file, where + ".margin", fmt::format("must be a percentage in [0, 100), found {}", m.dump()),
           "write it like --margin, e.g. 3 for 3%");
    rule.margin = m.get<double>() / 100.0;
  }
}

// A `metrics` key: a metric name `<bench>.<name>` or a glob over them; a leading benchmark part
// without wildcards must be a listed benchmark.
void check_pattern(const std::string& pattern, const std::set<std::string>& benchmarks, const std::string& where,
                   const std::filesystem::path& file) {
  const bool ok_chars = !pattern.empty() && std::all_of(pattern.begin(), pattern.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '*' || c == '?';
  });
  if (!ok_chars)
    fail(file, where, "is not a metric name or pattern",
         "use <benchmark>.<metric> (e.g. proof.total_s) with * and ? as wildcards (e.g. *_items_per_second)");
  const bool wild = pattern.find_first_of("*?") != std::string::npos;
  const auto dot = pattern.find('.');
  if (dot == std::string::npos) {
    if (!wild)
      fail(file, where, "is not a metric name: metric names are <benchmark>.<metric>",
           fmt::format("write e.g. \"{}.{}\", or a pattern such as \"*{}\"", benchmarks.empty() ? "proof" : *benchmarks.begin(), pattern, pattern));
    return;
  }
  const std::string bench = pattern.substr(0, dot);
  if (bench.find_first_of("*?") == std::string::npos && !benchmarks.count(bench))
    fail(file, where, fmt::format("names benchmark \"{}\", which the manifest does not list", bench),
         fmt::format("use one of the benchmarks' names ({}) or a wildcard", fmt::join(benchmarks, ", ")));
}

}  // namespace

std::vector<stats::metric_rule> parse_metric_rules(const json& root, const std::set<std::string>& benchmarks,
                                                   const std::filesystem::path& file) {
  std::vector<stats::metric_rule> rules;
  if (root.contains("benchmarks") && root["benchmarks"].is_array()) {
    for (std::size_t i = 0; i < root["benchmarks"].size(); ++i) {
      const json& b = root["benchmarks"][i];
      if (!b.is_object() || (!b.contains("better") && !b.contains("margin"))) continue;
      stats::metric_rule rule;
      rule.pattern = b.at("name").get<std::string>() + ".*";
      rule.whole_benchmark = true;
      read_fields(b, fmt::format("benchmarks[{}]", i), file, rule);
      rules.push_back(std::move(rule));
    }
  }
  if (!root.contains("metrics")) return rules;
  const json& metrics = root["metrics"];
  if (!metrics.is_object())
    fail(file, "metrics", "must be an object", "write {\"<benchmark>.<metric> or pattern\": {\"better\": \"higher\", \"margin\": 3}}");
  for (const auto& [pattern, decl] : metrics.items()) {
    const std::string where = "metrics." + pattern;
    check_pattern(pattern, benchmarks, where, file);
    if (!decl.is_object() || decl.empty())
      fail(file, where, "must be an object with \"better\" and/or \"margin\"", "e.g. {\"better\": \"higher\"} or {\"margin\": 3}");
    for (const auto& [key, value] : decl.items())
      if (key != "better" && key != "margin") fail(file, where + "." + key, "unknown key", "remove it or use one of: better, margin");
    stats::metric_rule rule;
    rule.pattern = pattern;
    read_fields(decl, where, file, rule);
    rules.push_back(std::move(rule));
  }
  return rules;
}

}  // namespace abtest
