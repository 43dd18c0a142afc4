// Parser of Google Benchmark's JSON reporter output (format `gbench`, design §4).
#include <algorithm>
#include <array>

#include "harness/exec/parse_support.hpp"
#include "harness/exec/parsers.hpp"

namespace abtest::exec {

namespace {
using nlohmann::json;

// Row keys written by Google Benchmark itself (1.5–1.8 JSONReporter); every other numeric key
// of a row is a user counter.
constexpr std::array<std::string_view, 20> reporter_keys{
    "name",        "run_name",     "run_type",       "repetitions",   "repetition_index",
    "threads",     "iterations",   "real_time",      "cpu_time",      "time_unit",
    "family_index", "per_family_instance_index", "aggregate_name", "aggregate_unit",
    "error_occurred", "error_message", "label",  "big_o",  "rms", "complexity_n"};

// Google Benchmark appends run settings to a benchmark's name ("BM_x/8/iterations:3",
// "/min_time:0.500", "/repeats:5", "/min_warmup_time:1.000"). They say how long it was measured, not
// what: dropping them keeps a metric's name, and its history, when a manifest fixes the iteration
// count. Arguments, /threads:N, /real_time and /manual_time stay: they change what is measured.
std::string without_run_settings(const std::string& name) {
  constexpr std::array<std::string_view, 4> settings{"iterations:", "min_time:", "repeats:", "min_warmup_time:"};
  const std::size_t first = name.find('/');
  std::string out = name.substr(0, first);  // the function name itself is never dropped
  for (std::size_t start = first; start != std::string::npos;) {
    const std::size_t next = name.find('/', start + 1);
    const std::size_t end = next == std::string::npos ? name.size() : next;
    const std::string_view part = std::string_view(name).substr(start + 1, end - start - 1);
    if (std::none_of(settings.begin(), settings.end(), [&](std::string_view s) { return part.starts_with(s); }))
      (out += '/') += part;
    start = next;
  }
  return out;
}

bool is_reporter_key(std::string_view key) {
  for (auto k : reporter_keys) {
    if (k == key) return true;
  }
  return false;
}

std::string context_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}
}  // namespace

parsed_output parse_gbench(std::string_view bench, std::string_view text) {
  json doc;
  try {
    doc = json::parse(sanitize_json_numbers(text));
  } catch (const json::exception& e) {
    return detail::bad_output(fmt::format(
        "stdout is not Google Benchmark JSON ({}; it starts with '{}') — run the benchmark with "
        "--benchmark_format=json and keep logs on stderr", e.what(), detail::excerpt(text)));
  }
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    return detail::bad_output(
        "Google Benchmark JSON without a \"benchmarks\" array — run the benchmark with "
        "--benchmark_format=json");

  parsed_output p;
  if (doc.contains("context") && doc["context"].is_object()) {
    p.context = doc["context"];
    if (p.context.contains("abtest_digest")) p.checks["digest"] = context_text(p.context["abtest_digest"]);
    if (p.context.contains("abtest_verified"))
      p.checks["verified"] = context_text(p.context["abtest_verified"]);
    if (p.context.contains("abtest_backend")) p.backend = context_text(p.context["abtest_backend"]);
  }

  // With --benchmark_report_aggregates_only there are no per-repetition rows: then the `median`
  // aggregates stand in for them (they are the value the median of the repetitions would give).
  bool has_iterations = false;
  for (const json& row : doc["benchmarks"]) {
    if (!row.is_object()) return detail::bad_output("a \"benchmarks\" entry is not an object — is the output truncated?");
    if (row.value("run_type", std::string("iteration")) != "aggregate" && !row.contains("aggregate_name"))
      has_iterations = true;
  }

  std::map<std::string, std::vector<double>> seen;
  for (const json& row : doc["benchmarks"]) {
    const std::string run_type = row.value("run_type", std::string("iteration"));
    const bool aggregate = run_type == "aggregate" || row.contains("aggregate_name");
    if (aggregate && (has_iterations || row.value("aggregate_name", std::string()) != "median")) continue;
    const json* name = row.contains("run_name") && row["run_name"].is_string() ? &row["run_name"]
                       : row.contains("name") && row["name"].is_string()   ? &row["name"]
                                                                           : nullptr;
    if (name == nullptr) return detail::bad_output("a benchmark row has no name — is this Google Benchmark JSON?");
    const std::string metric = fmt::format("{}.{}", bench, sanitize_metric_name(without_run_settings(name->get<std::string>())));
    if (row.value("error_occurred", false))
      return detail::bad_output(fmt::format("benchmark {} reported an error: {} — fix the benchmark "
                                            "(SkipWithError) before measuring",
                                            name->get<std::string>(), row.value("error_message", std::string())));
    const std::string unit = row.value("time_unit", std::string("ns"));
    const double scale = detail::seconds_per(unit);
    if (scale == 0.0)
      return detail::bad_output(fmt::format("benchmark {} has unknown time_unit '{}' — expected s, ms, us or ns",
                                            name->get<std::string>(), unit));
    if (row.contains("real_time")) {
      const json& t = row["real_time"];
      if (t.is_number()) {
        seen[metric + "_s"].push_back(t.get<double>() * scale);
      } else if (!t.is_null()) {
        return detail::bad_output(fmt::format("benchmark {} has a non-numeric real_time — is this Google "
                                              "Benchmark JSON?", name->get<std::string>()));
      }
    }
    for (const auto& [key, value] : row.items()) {
      if (is_reporter_key(key) || !value.is_number()) continue;
      seen[fmt::format("{}_{}", metric, sanitize_metric_name(key))].push_back(value.get<double>());
    }
  }
  p.metrics = detail::medians(seen);
  return detail::finish(std::move(p), "no benchmark row with a real_time; check --benchmark_filter");
}

}  // namespace abtest::exec
