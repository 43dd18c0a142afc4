// Format `gbench`: Google Benchmark's JSON reporter, on stdout or in the file of
// `--benchmark_out={out}` (design §4).
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <tuple>

#include "harness/exec/json_dom.hpp"
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

// The fields of one row the parser reads, gathered in one pass over its members (a repeated key
// keeps its last value, as nlohmann's map did); user counters in key order.
struct row_fields {
  std::optional<detail::dom_element> run_name, name, run_type, aggregate_name, error_occurred, error_message, time_unit,
      real_time, cpu_time;
  std::vector<std::pair<std::string_view, detail::dom_element>> counters;
};

row_fields fields_of(simdjson::dom::object row) {
  row_fields f;
  for (const auto [key, value] : row) {
    if (key == "run_name") f.run_name = value;
    else if (key == "name") f.name = value;
    else if (key == "run_type") f.run_type = value;
    else if (key == "aggregate_name") f.aggregate_name = value;
    else if (key == "error_occurred") f.error_occurred = value;
    else if (key == "error_message") f.error_message = value;
    else if (key == "time_unit") f.time_unit = value;
    else if (key == "real_time") f.real_time = value;
    else if (key == "cpu_time") f.cpu_time = value;
    else if (!is_reporter_key(key) && detail::number_of(value)) f.counters.emplace_back(key, value);
  }
  if (f.counters.size() > 1) {
    std::stable_sort(f.counters.begin(), f.counters.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = f.counters.size() - 1; i > 0; --i)
      if (f.counters[i - 1].first == f.counters[i].first) f.counters.erase(f.counters.begin() + static_cast<std::ptrdiff_t>(i) - 1);
  }
  return f;
}

// The text a field holds, or `fallback` when it is absent or not a string.
std::string_view text_or(const std::optional<detail::dom_element>& field, std::string_view fallback) {
  const auto s = field ? detail::string_of(*field) : std::nullopt;
  return s ? *s : fallback;
}

bool is_aggregate(const row_fields& f) { return text_or(f.run_type, "iteration") == "aggregate" || f.aggregate_name.has_value(); }

// The context object: kept whole, and abtest_digest / abtest_verified / abtest_backend read.
void read_context(detail::dom_element doc, parsed_output& p) {
  const auto context = detail::member(doc, "context");
  if (!context || !context->is_object()) return;
  p.context = detail::to_json(*context);
  if (p.context.contains("abtest_digest")) p.checks["digest"] = context_text(p.context["abtest_digest"]);
  if (p.context.contains("abtest_verified")) p.checks["verified"] = context_text(p.context["abtest_verified"]);
  if (p.context.contains("abtest_backend")) p.backend = context_text(p.context["abtest_backend"]);
}

// The suffix of cpu_time's metric: `_cpu_s`, unless a user counter of the row already makes that name
// (a counter `cpu_s`, as the model's synth-bench reports the synthesis's CPU seconds): then
// `_cpu_time_s`, so that both are kept rather than one refused as a collision.
const char* cpu_time_suffix(const row_fields& f) {
  // `key` sanitises to "cpu_s": "cpu", one character that becomes '_', "s" (without allocating).
  const auto is_cpu_s = [](std::string_view key) {
    return key.size() == 5 && key.starts_with("cpu") && key[4] == 's' && detail::metric_name_char(key[3]) == '_';
  };
  for (const auto& [key, value] : f.counters)
    if (is_cpu_s(key)) return "_cpu_time_s";
  return "_cpu_s";
}

// One row's metrics into `metrics`; an error message, or empty. `raw` and `metric` are scratch
// buffers the caller reuses from row to row (a big output has thousands of rows).
std::string add_row(const row_fields& f, detail::metric_set& metrics, std::string& raw, std::string& metric) {
  const auto name_text = f.run_name ? detail::string_of(*f.run_name) : std::nullopt;
  const auto name = name_text ? name_text : f.name ? detail::string_of(*f.name) : std::nullopt;
  if (!name) return "a benchmark row has no name — is this Google Benchmark JSON?";
  raw = without_run_settings(std::string(*name));
  metric = sanitize_metric_name(raw);
  const std::size_t raw_size = raw.size(), metric_size = metric.size();
  if (f.error_occurred && f.error_occurred->is_bool() && f.error_occurred->get_bool().value_unsafe())
    return fmt::format("benchmark {} reported an error: {} — fix the benchmark (SkipWithError) before measuring", *name,
                       text_or(f.error_message, ""));
  const std::string_view unit = text_or(f.time_unit, "ns");
  const double scale = detail::seconds_per(unit);
  if (scale == 0.0) return fmt::format("benchmark {} has unknown time_unit '{}' — expected s, ms, us or ns", *name, unit);
  for (const auto& [field, key, suffix] : {std::tuple{&f.real_time, "real_time", "_s"}, std::tuple{&f.cpu_time, "cpu_time", cpu_time_suffix(f)}}) {
    if (!*field) continue;
    if (const auto t = detail::number_of(**field)) {
      metric.resize(metric_size);
      if (!metrics.add(raw, metric += suffix, *t * scale)) return metrics.error();
    } else if (!(*field)->is_null()) {
      return fmt::format("benchmark {} has a non-numeric {} — is this Google Benchmark JSON?", *name, key);
    }
  }
  for (const auto& [key, value] : f.counters) {
    raw.resize(raw_size);
    metric.resize(metric_size);
    (raw += " counter ") += key;
    (metric += '_') += key;
    for (char& c : std::span(metric).subspan(metric_size + 1)) c = detail::metric_name_char(c);
    if (!metrics.add(raw, metric, *detail::number_of(value))) return metrics.error();
  }
  return {};
}

// For each benchmark run name, real_time in its time_unit becomes `<bench>.<name>_s` in seconds and
// cpu_time `<bench>.<name>_cpu_s` (`_cpu_time_s` beside a counter `cpu_s`), `name` sanitised (run settings such as /iterations:3 dropped);
// numeric user counters become `<bench>.<name>_<counter>` (items_per_second →
// `<name>_items_per_second`). With repetitions the value is the median of the repetitions;
// aggregate rows are ignored — unless the report holds nothing else
// (--benchmark_report_aggregates_only), and then the `median` rows are used. Context keys
// abtest_digest / abtest_verified / abtest_backend fill checks / backend; the whole context is
// kept. A row with error_occurred makes the output bad_output.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  simdjson::dom::parser parser;
  detail::dom_element doc;
  if (std::string error = detail::read_json_document(in, "Google Benchmark JSON",
                                                     "run the benchmark with --benchmark_format=json and keep logs on stderr, "
                                                     "or with --benchmark_out={out} --benchmark_out_format=json",
                                                     parser, doc);
      !error.empty())
    return detail::bad_output(std::move(error));
  const auto benchmarks = detail::member(doc, "benchmarks");
  if (!benchmarks || !benchmarks->is_array())
    return detail::bad_output(
        "Google Benchmark JSON without a \"benchmarks\" array — run the benchmark with "
        "--benchmark_format=json");

  parsed_output p;
  read_context(doc, p);

  // With --benchmark_report_aggregates_only there are no per-repetition rows: then the `median`
  // aggregates stand in for them (they are the value the median of the repetitions would give).
  std::vector<row_fields> rows;
  bool has_iterations = false;
  for (const detail::dom_element row : detail::array_of(*benchmarks)) {
    if (!row.is_object()) return detail::bad_output("a \"benchmarks\" entry is not an object — is the output truncated?");
    rows.push_back(fields_of(detail::object_of(row)));
    has_iterations = has_iterations || !is_aggregate(rows.back());
  }

  detail::metric_set metrics(bench);
  std::string raw, metric;
  for (const row_fields& f : rows) {
    if (is_aggregate(f) && (has_iterations || text_or(f.aggregate_name, "") != "median")) continue;
    if (std::string error = add_row(f, metrics, raw, metric); !error.empty()) return detail::bad_output(std::move(error));
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
