// libFuzzer target: every benchmark-output format of the registry (design §4). The first byte picks
// a format and its manifest keys; the rest is the child's output. Whatever a benchmark prints, the
// parser returns a status, and every metric it stores is a finite number.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "harness/exec/format.hpp"

namespace {
struct fuzz_case {
  std::string_view format;
  const char* options;  // JSON: the keys a manifest gives; they come from the manifest, not the child
};
// 0–3 as before the registry (the corpus' first bytes), then one case per newer format or key set.
constexpr fuzz_case cases[] = {
    {"gbench", "{}"},
    {"json", "{}"},
    {"lines", R"j({"pattern": "PLANTED_(?:TIMING|COUNT): (\\w+) ([0-9.]+) ?(ms)?"})j"},
    {"lines", R"j({"pattern": "CUZK_TIMING: (\\w+) ([0-9.]+) (ms)"})j"},
    {"criterion", "{}"},
    {"libtest", "{}"},
    {"divan", "{}"},
    {"json", R"j({"rows": "results", "name_field": "command", "value_field": "mean", "unit": "s"})j"},
    {"json", R"j({"name_field": "id", "value_field": "typical.estimate", "unit": "ns", "where": {"reason": "benchmark-complete"}})j"},
    {"lines", R"j({"patterns": {"compress": "\\(x[0-9.]+\\),\\s*([0-9.,]+) ?([A-Za-z]*/s)", "ratio": "\\(x([0-9.]+)\\)"},
                 "pattern": "(\\w+): ([0-9.,]+) ?(\\S+)?"})j"},
    {"hyperfine", "{}"},
    {"pytest-benchmark", "{}"},
    {"catch2", "{}"},
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const auto options = [] {
    std::vector<nlohmann::json> out;
    for (const auto& c : cases) out.push_back(nlohmann::json::parse(c.options));
    return out;
  }();
  constexpr std::size_t n = sizeof(cases) / sizeof(cases[0]);
  const std::size_t pick = data[0] % n;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  // The same bytes on stdout and on stderr, so that formats reading either see them.
  const auto p = abtest::exec::parse_output(cases[pick].format, "fuzz", options[pick],
                                            abtest::exec::format_input{text, text, {}});
  // Stored metrics are finite numbers (SQLite REAL; the statistics take their logarithm).
  for (const auto& [name, value] : p.metrics)
    if (!std::isfinite(value)) __builtin_trap();
  return 0;
}
