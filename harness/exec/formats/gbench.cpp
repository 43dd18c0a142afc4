// Format `gbench`: Google Benchmark's JSON reporter, on stdout or in the file of
// `--benchmark_out={out}` (design §4).
#include <algorithm>
#include <array>

#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace gbench_format_detail {
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

// For each benchmark run name, real_time in its time_unit becomes `<bench>.<name>_s` in seconds and
// cpu_time `<bench>.<name>_cpu_s`, `name` sanitised (run settings such as /iterations:3 dropped);
// numeric user counters become `<bench>.<name>_<counter>` (items_per_second →
// `<name>_items_per_second`). With repetitions the value is the median of the repetitions;
// aggregate rows are ignored — unless the report holds nothing else
// (--benchmark_report_aggregates_only), and then the `median` rows are used. Context keys
// abtest_digest / abtest_verified / abtest_backend fill checks / backend; the whole context is
// kept. A row with error_occurred makes the output bad_output.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  json doc;
  if (std::string error = detail::read_json_document(in, "Google Benchmark JSON",
                                                     "run the benchmark with --benchmark_format=json and keep logs on stderr, "
                                                     "or with --benchmark_out={out} --benchmark_out_format=json",
                                                     doc);
      !error.empty())
    return detail::bad_output(std::move(error));
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

  detail::metric_set metrics(bench);
  for (const json& row : doc["benchmarks"]) {
    const std::string run_type = row.value("run_type", std::string("iteration"));
    const bool aggregate = run_type == "aggregate" || row.contains("aggregate_name");
    if (aggregate && (has_iterations || row.value("aggregate_name", std::string()) != "median")) continue;
    const json* name = row.contains("run_name") && row["run_name"].is_string() ? &row["run_name"]
                       : row.contains("name") && row["name"].is_string()   ? &row["name"]
                                                                           : nullptr;
    if (name == nullptr) return detail::bad_output("a benchmark row has no name — is this Google Benchmark JSON?");
    const std::string raw = without_run_settings(name->get<std::string>());
    const std::string metric = sanitize_metric_name(raw);
    if (row.value("error_occurred", false))
      return detail::bad_output(fmt::format("benchmark {} reported an error: {} — fix the benchmark "
                                            "(SkipWithError) before measuring",
                                            name->get<std::string>(), row.value("error_message", std::string())));
    const std::string unit = row.value("time_unit", std::string("ns"));
    const double scale = detail::seconds_per(unit);
    if (scale == 0.0)
      return detail::bad_output(fmt::format("benchmark {} has unknown time_unit '{}' — expected s, ms, us or ns",
                                            name->get<std::string>(), unit));
    for (const auto& [key, suffix] : {std::pair{"real_time", "_s"}, std::pair{"cpu_time", "_cpu_s"}}) {
      if (!row.contains(key)) continue;
      const json& t = row[key];
      if (t.is_number()) {
        if (!metrics.add(raw, metric + suffix, t.get<double>() * scale)) return detail::bad_output(metrics.error());
      } else if (!t.is_null()) {
        return detail::bad_output(fmt::format("benchmark {} has a non-numeric {} — is this Google Benchmark JSON?",
                                              name->get<std::string>(), key));
      }
    }
    for (const auto& [key, value] : row.items()) {
      if (is_reporter_key(key) || !value.is_number()) continue;
      if (!metrics.add(raw + " counter " + key, fmt::format("{}_{}", metric, sanitize_metric_name(key)), value.get<double>()))
        return detail::bad_output(metrics.error());
    }
  }
  return metrics.finish(std::move(p), "no benchmark row with a real_time; check --benchmark_filter");
}

}  // namespace gbench_format_detail

const output_format_row& gbench_format() {
  static const output_format_row row{"gbench", "Google Benchmark JSON: stdout, or the file of --benchmark_out={out}",
                                     output_stream::stdout_text, "", {}, no_options, gbench_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
