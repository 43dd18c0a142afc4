// Reads a benchmark object of abtest.json (design §3, §4).
#include "harness/core/manifest_benchmark.hpp"

#include <fmt/format.h>

#include <regex>

#include "harness/exec/format.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;
using validator = manifest_validator;

// `"counts"`: false, true (the defaults), or the object of counts_spec.
counts_spec parse_counts(const validator& v, const json& j, const std::string& where, double bench_timeout_s) {
  counts_spec c;
  c.timeout_s = 50 * bench_timeout_s;
  if (j.is_boolean()) {
    c.enabled = j.get<bool>();
    return c;
  }
  if (!j.is_object())
    v.fail(where, "must be an object or false", "e.g. {\"params\": {\"preset\": \"tiny\"}}, or false to leave the benchmark out of --counts");
  v.only_keys(j, where, {"params", "region", "args", "rename", "timeout_s"});
  if (j.contains("params"))
    for (const auto& [key, value] : v.object(j, "params", where + ".params").items())
      c.params[key] = v.scalar(value, where + ".params." + key);
  if (j.contains("region")) {
    c.region = v.string(j["region"], where + ".region");
    if (c.region.empty() || c.region.find_first_of(" \t\n") != std::string::npos)
      v.fail(where + ".region", fmt::format("\"{}\" is not a function pattern", c.region),
             "name the function as `nm -C` spells it, with * and ? as wildcards, e.g. \"ns::run*\"");
  }
  if (j.contains("args")) c.args = v.strings(j["args"], where + ".args");
  if (j.contains("rename")) {
    const json& r = j["rename"];
    if (!r.is_array()) v.fail(where + ".rename", "must be an array of [pattern, replacement] pairs", "e.g. [[\"<[0-9]+ul>\", \"<N>\"]]");
    for (size_t i = 0; i < r.size(); ++i) {
      const std::string at = fmt::format("{}.rename[{}]", where, i);
      const auto pair = v.strings(r[i], at);
      if (pair.size() != 2) v.fail(at, "must be a [pattern, replacement] pair", "e.g. [\"<[0-9]+ul>\", \"<N>\"]");
      try {
        std::regex re(pair[0], std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        v.fail(at, fmt::format("is not a valid ECMAScript regular expression ({})", e.what()), "fix the expression");
      }
      c.rename.emplace_back(pair[0], pair[1]);
    }
  }
  if (j.contains("timeout_s")) c.timeout_s = v.positive(j["timeout_s"], where + ".timeout_s");
  return c;
}

// The benchmark's output format: its row, which names the keys the format takes (design §4).
const exec::output_format_row& format_row(const validator& v, const json& j, const std::string& where) {
  if (!j.contains("format")) v.fail(where + ".format", "missing", fmt::format("use one of: {}", exec::output_format_names()));
  const std::string format = v.string(j["format"], where + ".format");
  const exec::output_format_row* row = exec::find_output_format(format);
  if (row == nullptr)
    v.fail(where + ".format", fmt::format("unknown format \"{}\"", format), fmt::format("use one of: {}", exec::output_format_names()));
  return *row;
}

// The one hook where a format's own keys (`pattern`, `rows`, …) are handed to its row to validate.
json format_options(const validator& v, const exec::output_format_row& row, const json& j, const std::string& where) {
  try {
    return row.options(j);
  } catch (const exec::format_key_error& e) {
    v.fail(where + "." + e.key, e.what, e.fix);
  }
}

}  // namespace

benchmark_spec parse_benchmark(const validator& v, const json& j, const std::string& where) {
  if (!j.is_object()) v.fail(where, "must be an object", "write {\"name\": ..., \"format\": ..., \"command\": [...]}");
  const exec::output_format_row& row = format_row(v, j, where);
  std::vector<std::string> keys{"name", "format", "command", "timeout_s", "warmups", "ok_exit_codes", "counts", "better", "margin"};
  keys.insert(keys.end(), row.keys.begin(), row.keys.end());
  v.only_keys(j, where, keys);
  benchmark_spec b;
  if (!j.contains("name")) v.fail(where + ".name", "missing", "name the benchmark, e.g. \"proof\"");
  b.name = v.string(j["name"], where + ".name");
  static const std::regex name_re("[a-z][a-z0-9_]{0,31}");
  if (!std::regex_match(b.name, name_re))
    v.fail(where + ".name", fmt::format("\"{}\" is not a valid benchmark name", b.name),
           "use 1–32 characters [a-z0-9_] starting with a letter (it prefixes metric names)");
  b.format = std::string(row.name);
  b.format_options = format_options(v, row, j, where);
  if (!j.contains("command")) v.fail(where + ".command", "missing", "give the program and its arguments as an array");
  b.command = v.strings(j["command"], where + ".command");
  if (b.command.empty() || b.command.front().empty())
    v.fail(where + ".command", "is empty", "give the program and its arguments, e.g. [\"{bin}/bench\", \"--json\"]");
  if (j.contains("timeout_s")) b.timeout_s = v.positive(j["timeout_s"], where + ".timeout_s");
  if (j.contains("warmups")) {
    if (!j["warmups"].is_number_integer() || j["warmups"].get<int>() < 0)
      v.fail(where + ".warmups", "must be a non-negative integer", "e.g. 1");
    b.warmups = j["warmups"].get<int>();
  }
  if (j.contains("ok_exit_codes")) {
    const json& codes = j["ok_exit_codes"];
    if (!codes.is_array() || codes.empty())
      v.fail(where + ".ok_exit_codes", "must be a non-empty array of exit codes", "e.g. [0, 4] for a program that exits with its count");
    b.ok_exit_codes.clear();
    for (const auto& c : codes) {
      if (!c.is_number_integer() || c.get<long long>() < 0 || c.get<long long>() > 255)
        v.fail(where + ".ok_exit_codes", fmt::format("{} is not an exit code", c.dump()), "use integers 0–255");
      b.ok_exit_codes.push_back(c.get<int>());
    }
  }
  b.counts.timeout_s = 50 * b.timeout_s;
  if (j.contains("counts")) b.counts = parse_counts(v, j["counts"], where + ".counts", b.timeout_s);
  return b;
}

}  // namespace abtest
