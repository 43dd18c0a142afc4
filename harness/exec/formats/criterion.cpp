// Format `criterion`: Criterion.rs's estimates.json per bench id in the folder it writes
// (CRITERION_HOME={out}), else cargo-criterion's JSON messages or Criterion's console text
// (design §4).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/exec/json_dom.hpp"
#include "harness/exec/parse_support.hpp"
#include "harness/exec/text.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace criterion_format_detail {
namespace fs = std::filesystem;
using nlohmann::json;

// The JSON document in `file`, read into `parser`; nullopt when it is missing or not JSON.
std::optional<detail::dom_element> read_json(simdjson::dom::parser& parser, const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  detail::dom_element root;
  if (!detail::parse_dom(parser, std::move(buffer).str(), root).empty()) return std::nullopt;
  return root;
}

// The point estimate of `estimates[key]`, when it is a number.
std::optional<double> point(detail::dom_element estimates, std::string_view key) {
  const auto e = detail::member(estimates, key);
  const auto estimate = e ? detail::member(*e, "point_estimate") : std::nullopt;
  return estimate ? detail::number_of(*estimate) : std::nullopt;
}

// The JSON at `key` of `object`, or null.
json value_at(std::optional<detail::dom_element> object, std::string_view key) {
  const auto value = object ? detail::member(*object, key) : std::nullopt;
  return value ? detail::to_json(*value) : json();
}

// <home>/<id…>/new/estimates.json (with benchmark.json beside it, whose full_id is the bench id):
// the slope's point estimate, else the mean's, in ns. The confidence interval goes to the context.
// Returns an error message, or empty; `found` counts the estimates read.
std::string read_home(const fs::path& home, detail::metric_set& metrics, json& context, int& found) {
  simdjson::dom::parser estimates_parser, about_parser;  // two documents alive at once
  std::error_code ec;
  for (fs::recursive_directory_iterator it(home, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& file = it->path();
    if (file.filename() != "estimates.json" || file.parent_path().filename() != "new") continue;
    const auto estimates = read_json(estimates_parser, file);
    if (!estimates || !estimates->is_object())
      return fmt::format("{} is not Criterion's estimates JSON — was the bench interrupted?", file.string());
    std::string id = fs::relative(file.parent_path().parent_path(), home, ec).generic_string();
    if (const auto about = read_json(about_parser, file.parent_path() / "benchmark.json")) {
      const auto full_id = detail::member(*about, "full_id");
      if (const auto text = full_id ? detail::string_of(*full_id) : std::nullopt) id = *text;
    }
    const char* which = point(*estimates, "slope") ? "slope" : "mean";
    const auto ns = point(*estimates, which);
    if (!ns) return fmt::format("{} has neither a slope nor a mean estimate — is this Criterion's output?", file.string());
    if (!metrics.add(id, sanitize_metric_name(id) + "_s", *ns * 1e-9)) return metrics.error();
    const auto ci = detail::member(*detail::member(*estimates, which), "confidence_interval");
    const bool ci_object = ci && ci->is_object();
    context[id] = {{"estimate", which}, {"ns", *ns}, {"lower_ns", ci_object ? value_at(ci, "lower_bound") : json()},
                   {"upper_ns", ci_object ? value_at(ci, "upper_bound") : json()}};
    ++found;
  }
  return {};
}

// cargo-criterion --message-format=json: {"reason":"benchmark-complete","id":…,"typical":
// {"estimate":…,"unit":"ns"},…} per bench ("typical" is the slope where there is one, else the mean).
std::string read_messages(std::string_view text, detail::metric_set& metrics, int& found) {
  simdjson::dom::parser parser;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = detail::trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.starts_with("{") || line.find("\"reason\"") == std::string_view::npos) continue;
    detail::dom_element m;
    if (std::string reason = detail::parse_dom(parser, line, m); !reason.empty())
      return fmt::format("a cargo-criterion message is not JSON ({}) — is the output cut?", reason);
    const auto why = detail::member(m, "reason");
    if (!why || detail::string_of(*why) != std::optional<std::string_view>("benchmark-complete")) continue;
    const auto id_field = detail::member(m, "id");
    const auto id_text = id_field ? detail::string_of(*id_field) : std::nullopt;
    const auto typical = detail::member(m, "typical");
    const auto estimate_field = typical ? detail::member(*typical, "estimate") : std::nullopt;
    const auto estimate = estimate_field ? detail::number_of(*estimate_field) : std::nullopt;
    if (!id_text || !estimate)
      return "a benchmark-complete message without \"id\" or \"typical\".\"estimate\" — is this cargo-criterion's JSON?";
    const std::string id(*id_text);
    const auto unit_field = detail::member(*typical, "unit");
    const auto unit = unit_field ? detail::string_of(*unit_field) : std::optional<std::string_view>("ns");
    const double scale = unit ? detail::seconds_per(*unit) : 0.0;
    if (scale == 0) return fmt::format("bench {}: unknown unit {} — expected ns", id, value_at(typical, "unit").dump());
    if (!metrics.add(id, sanitize_metric_name(id) + "_s", *estimate * scale)) return metrics.error();
    ++found;
  }
  return {};
}

// The console: `<id>  time:   [lo unit est unit hi unit]`, where an id too long for its column
// sits alone on the line before.
std::string read_console(std::string_view text, detail::metric_set& metrics, int& found) {
  std::string_view previous;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t at = line.find("time:");
    const std::size_t open = line.find('[', at == std::string_view::npos ? 0 : at);
    const std::size_t close = line.find(']', open == std::string_view::npos ? 0 : open);
    if (at == std::string_view::npos || open == std::string_view::npos || close == std::string_view::npos) {
      if (!detail::trim(line).empty()) previous = line;
      continue;
    }
    std::string_view id = detail::trim(line.substr(0, at));
    if (id.empty()) id = detail::trim(previous);
    std::vector<std::string_view> words;
    for (std::string_view inner = line.substr(open + 1, close - open - 1); !inner.empty();) {
      inner = detail::trim(inner);
      const std::size_t sp = inner.find(' ');
      words.push_back(inner.substr(0, sp));
      inner.remove_prefix(sp == std::string_view::npos ? inner.size() : sp);
    }
    if (id.empty() || words.size() != 6) continue;
    const auto value = detail::parse_number(words[2]);
    const double scale = detail::seconds_per(words[3]);
    if (!value || scale == 0) return fmt::format("bench {}: '{} {}' is not a time — is this Criterion's output?", id, words[2], words[3]);
    if (!metrics.add(id, sanitize_metric_name(id) + "_s", *value * scale)) return metrics.error();
    ++found;
    previous = {};
  }
  return {};
}

parsed_output parse(std::string_view bench, const json& options, const format_input& in) {
  detail::metric_set metrics(bench);
  parsed_output p;
  int found = 0;
  std::error_code ec;
  if (!in.out.empty() && fs::is_directory(in.out, ec)) {
    json estimates = json::object();
    if (std::string e = read_home(in.out, metrics, estimates, found); !e.empty()) return detail::bad_output(std::move(e));
    if (found > 0) p.context["criterion"] = std::move(estimates);
  }
  if (found == 0) {
    if (std::string e = read_messages(in.stdout_text, metrics, found); !e.empty()) return detail::bad_output(std::move(e));
  }
  if (found == 0) {
    if (std::string e = read_console(in.stdout_text, metrics, found); !e.empty()) return detail::bad_output(std::move(e));
  }
  if (found == 0 && in.stdout_text.find(" ... bench:") != std::string_view::npos)  // --output-format bencher
    return find_output_format("libtest")->parse(bench, options, format_input{in.stdout_text, in.stderr_text, {}});
  return metrics.finish(std::move(p), "no estimates.json under CRITERION_HOME and no `time: [...]` line — run the "
                                      "Criterion bench itself (`{bin}/<bench> --bench`), not a test binary");
}
}  // namespace criterion_format_detail

const output_format_row& criterion_format() {
  static const output_format_row row{
      "criterion",
      "the estimates.json files Criterion writes under CRITERION_HOME={out}; else cargo-criterion's JSON messages or "
      "the console's `time: [lo est hi]` on stdout",
      output_stream::stdout_text, "", {}, no_options, criterion_format_detail::parse, {{"CRITERION_HOME", "{out}"}}};
  return row;
}

}  // namespace abtest::exec
