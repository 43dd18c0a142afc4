// Parser of the abtest metrics protocol (format `json`, design §4).
#include "harness/exec/parse_support.hpp"
#include "harness/exec/parsers.hpp"

namespace abtest::exec {

parsed_output parse_json(std::string_view bench, std::string_view text) {
  using nlohmann::json;
  json doc;
  try {
    doc = json::parse(sanitize_json_numbers(text));
  } catch (const json::exception& e) {
    return detail::bad_output(fmt::format(
        "stdout is not one JSON object ({}; it starts with '{}') — print only the JSON object on "
        "stdout and logs on stderr", e.what(), detail::excerpt(text)));
  }
  if (!doc.is_object())
    return detail::bad_output(fmt::format("stdout is JSON but not an object (it starts with '{}') — print "
                                          "{{\"metrics\": {{...}}, \"checks\": {{...}}}}", detail::excerpt(text)));
  parsed_output p;
  if (doc.contains("metrics")) {
    const json& metrics = doc["metrics"];
    if (!metrics.is_object())
      return detail::bad_output("\"metrics\" is not an object — print {\"metrics\": {\"total_s\": 1.9, ...}}");
    for (const auto& [name, value] : metrics.items()) {
      if (value.is_null()) continue;  // NaN / inf written as a bare token: no value this time
      if (!value.is_number())
        return detail::bad_output(fmt::format("metric '{}' is {} — metrics must be numbers (seconds, MiB "
                                              "or counts)", name, value.dump()));
      p.metrics.emplace(fmt::format("{}.{}", bench, name), value.get<double>());
    }
  }
  if (doc.contains("checks")) {
    const json& checks = doc["checks"];
    if (!checks.is_object())
      return detail::bad_output("\"checks\" is not an object — print {\"checks\": {\"verified\": true, ...}}");
    for (const auto& [name, value] : checks.items())
      p.checks.emplace(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  if (doc.contains("backend")) {
    if (!doc["backend"].is_string())
      return detail::bad_output("\"backend\" is not a string — print \"backend\": \"cpu\" or \"cuda\"");
    p.backend = doc["backend"].get<std::string>();
  }
  if (doc.contains("context")) {
    if (!doc["context"].is_object())
      return detail::bad_output("\"context\" is not an object — print \"context\": {...}");
    p.context = doc["context"];
  }
  return detail::finish(std::move(p), "print {\"metrics\": {\"total_s\": ...}} on stdout");
}

}  // namespace abtest::exec
